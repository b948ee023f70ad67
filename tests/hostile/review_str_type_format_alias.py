# expect: ForbiddenError
f = str.format
print(f("{0.__class__}", 1))
