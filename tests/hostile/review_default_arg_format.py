# expect: ForbiddenError
def g(f="{0.__globals__}".format):
    return f(len)


print(g())
