# expect: ForbiddenError|SyntaxError
# gradtrace never evaluates annotations (as under `from __future__ import annotations`,
# where CPython refuses := in one: "named expression cannot be used within an
# annotation"). Without that import, CPython 3.11 evaluates these and binds y, z and w;
# gradtrace dropped the walrus silently and printed `1 1 1` where CPython prints `5 6 3`.
y = 1
z = 1
w = 1


def f(a: (y := 5)) -> (z := 6):
    return a


x: (w := 3) = 4
print(y, z, w)
