# expect: ForbiddenError
g = lambda v, f="{0.__globals__}".format: f(v)
print(g(len))
