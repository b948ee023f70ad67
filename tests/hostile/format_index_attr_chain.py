# expect: ForbiddenError
d = {'a': 1}
print("{0[a].__class__}".format(d))
