# expect: ForbiddenError
# a module-level variable and function parameter named __init__ (the dunder allowlist is global, not per place)
def f(__init__):
    return __init__ * 2
__init__ = 21
print(f(__init__))
