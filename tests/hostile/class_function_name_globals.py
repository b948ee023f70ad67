# expect: ForbiddenError
def f():
    pass


print(f.__name__)
print(f.__globals__)
