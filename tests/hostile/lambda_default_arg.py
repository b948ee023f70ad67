# expect: ForbiddenError
f = lambda x=().__class__: x
print(f())
