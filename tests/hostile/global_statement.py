# expect: ForbiddenError
x = 1


def f():
    global __builtins__
    return 1

f()
