# expect: LookupError
# `x: int = None` binds x to None in the class namespace: a later `y = x` is None, never
# a global of the same name (an annotated default of None is a default all the same)
x = "the global"


class A:
    x: int = None
    y = x


print(A.y)
assert A.y is None, f"A.y = {A.y!r}"
print(A.x)
raise LookupError("done")
