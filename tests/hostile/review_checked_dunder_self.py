# expect: ForbiddenError
f = len
print(f.__self__)
