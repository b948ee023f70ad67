# expect: ForbiddenError|SyntaxError
# := in a class body binds in the class's namespace in CPython (A.limit, A.scale, A.hit);
# gradtrace evaluates class-body expressions in the enclosing scope, so the walrus wrote
# the module's (or an enclosing function's) names instead: `limit` and `scale` here were
# overwritten silently, and A got no such attributes. Refuse it (class bodies hold only
# methods and simple attributes), or bind in the class.
limit = 1000
scale = 1.0


class A:
    cap = (limit := 10**9)

    def step(self, lr=(scale := 50.0)):
        return lr


def build():
    class B:
        n: int = (hit := 3)
    return hit  # NameError in CPython: `hit` is B's


print(limit, scale, build())
