# expect: LookupError
# `x: int = 2`, then `x = x + 1`: CPython's A.x is 3 (the later plain binding wins)
class A:
    x: int = 2
    x = x + 1


print(A.x)
assert A.x == 3, f"A.x = {A.x}"
raise LookupError("done")
