# expect: LookupError
# a class built (and failing) inside another class's body expression: the outer body
# still reads its own namespace after, and the inner never reads the outer's
v = "global"


def inner():
    try:

        class B:
            w = v  # B binds no v: the global
            v = 1 / 0

    except ZeroDivisionError:
        pass

    class C:
        u = v  # C binds no v: the global

    return C.u


class A:
    v = "A"
    got = inner()
    after = v


print(A.got, A.after)
assert (A.got, A.after) == ("global", "A"), (A.got, A.after)
raise LookupError("done")
