# expect: ForbiddenError
f = lambda x=().__class__.__base__: x
print(f())
