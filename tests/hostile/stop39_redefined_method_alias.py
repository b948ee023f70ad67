# expect: LookupError
# a class body reads a method it defined, then defines it again: CPython's alias is the
# first definition (the namespace as it was then), never the later one
class A:
    def m(self):
        return 1

    first = m

    def m(self):
        return 2


got = A().first()
print(got)
assert got == 1, f"the alias is the later method: {got}"
raise LookupError("done")
