# expect: LookupError
# In a class inside a function, a name the body binds (even later) is read with
# LOAD_NAME: the class namespace, then the globals, never the function's local of that name
x = "global"


def make():
    x = "enclosing"

    class A:
        y = x
        x = "class"

    return A, x


A, _ = make()
print(A.y, A.x)
assert A.y == "global", f"A.y = {A.y!r}"
raise LookupError("done")
