# expect: LookupError
# `x = 1`, then `x: int = 2`, then `y = x`: CPython's y is 2, and so is A.x
class A:
    x = 1
    x: int = 2
    y = x


print(A.x, A.y)
assert (A.x, A.y) == (2, 2), f"A.x, A.y = {A.x}, {A.y}"
raise LookupError("done")
