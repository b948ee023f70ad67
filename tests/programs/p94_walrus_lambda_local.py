# `:=` in a lambda binds a local of the lambda, as an assignment in a def would: the name
# is the lambda's own for its whole body, so reading it before the `:=` runs is an
# UnboundLocalError in CPython, never the enclosing (here global) value of that name.
# (stop38b: gradtrace's lambda had no locals, so the read found the global q.)
q = 5


def show_then_set():
    return (print(q), (q := 2))


first = lambda: (print(q), (q := 2))
maybe = lambda flag: (flag and (r := 1)) or r
r = 7

for f in (first, show_then_set):
    try:
        f()
        print("read the global")
    except UnboundLocalError as e:
        print("UnboundLocalError", e)

for flag in (True, False):
    try:
        print(maybe(flag))
    except UnboundLocalError as e:
        print("UnboundLocalError", e)
print(q, r)
