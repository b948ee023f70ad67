# expect: LookupError
# `x = 5`, then `def x`, then `y = x`: CPython's y is the method (the latest binding)
class A:
    x = 5

    def x(self):
        return "method"

    y = x


print(A.y)
assert callable(A.y), f"y is the attribute bound before the method: {A.y!r}"
raise LookupError("done")
