# expect: ForbiddenError
f = "{}".format
print(f.__self__)
