# expect: LimitError|ForbiddenError
s = 'a'.center(10**9)
