# expect: ForbiddenError
# a user function is our UserFunction object: plain (non-underscore) fields reach interp, its builtins and scopes
def f():
    return 1
show = "{0.interp.limits} {0.interp.builtins[print]} {0.scope.vars}".format
print(show(f)[:300])
