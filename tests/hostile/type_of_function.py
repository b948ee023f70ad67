# expect: ForbiddenError
def f():
    pass

print(type(f))
