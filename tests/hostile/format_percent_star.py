# expect: LimitError|ForbiddenError
s = "%*d" % (10**9, 1)
print(len(s))
