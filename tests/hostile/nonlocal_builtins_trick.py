# expect: ForbiddenError
def f():
    __builtins__ = {}
    return 1

f()
