# expect: LimitError|ForbiddenError
s = '1'.zfill(10**9)
