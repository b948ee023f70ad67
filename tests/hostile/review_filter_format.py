# expect: ForbiddenError
print(list(filter("{0.__class__.__mro__}".format, [1])))
