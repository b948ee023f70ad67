# expect: ForbiddenError|SyntaxError
# A method's decorators and defaults run in the class body: := there binds in the class
# namespace in CPython (here A.st and A.base), never in the module. gradtrace compiled
# them in the enclosing scope, so `st` and `base` became module names (CPython: NameError
# at the print).
class A:
    @(st := staticmethod)
    def m(k=(base := 2)):
        return k


print(A.m(), st, base)
