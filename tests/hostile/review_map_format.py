# expect: ForbiddenError
print(list(map("{0.__globals__}".format, [len])))
