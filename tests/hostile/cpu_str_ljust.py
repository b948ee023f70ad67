# expect: LimitError|ForbiddenError
s = 'a'.ljust(10**10)
