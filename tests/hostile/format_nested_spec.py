# expect: LimitError|ForbiddenError
s = "{:{}}".format(1, 10**9)
print(len(s))
