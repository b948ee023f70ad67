# := in the defaults or decorators of a nested def, or in a lambda's defaults, runs in
# the enclosing function and binds a local of it (CPython's symbol table counts it there):
# reading the name earlier in that function is an UnboundLocalError, never the global.
# (stop38b: runtime.bound_names skipped nested defs' and lambdas' defaults and
# decorators, so the enclosing function read the global value.)
d = "global"
e = "global"
c = "global"


def nested_default():
    try:
        print(d)
    except UnboundLocalError:
        print("UnboundLocalError d")

    def g(a=(d := 1)):
        return a

    return d, g()


def lambda_default():
    try:
        print(e)
    except UnboundLocalError:
        print("UnboundLocalError e")
    k = lambda a=(e := 2): a
    return e, k()


def decorator():
    try:
        print(c)
    except UnboundLocalError:
        print("UnboundLocalError c")

    @(c := (lambda fn: fn))
    def inner():
        return 3

    return inner()


print(nested_default(), lambda_default(), decorator(), d, e, c)
