# expect: ForbiddenError
p = property(lambda self: 1)
print(p.fget)
