# expect: ForbiddenError
fs = ["{0.__class__}".format]
print(fs[0](1))
