# expect: ForbiddenError
def f():
    return 1

print(f.__code__.co_consts)
