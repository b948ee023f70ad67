# expect: ForbiddenError
f = lambda: (yield 1)
print(list(f()))
