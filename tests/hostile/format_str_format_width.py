# expect: LimitError|ForbiddenError
s = "{:>1000000000}".format(1)
print(len(s))
