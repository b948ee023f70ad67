# expect: ForbiddenError|LookupError
# CPython's class namespace starts with __module__ and __qualname__: the body reads them
class A:
    mine = __qualname__
    where = __module__


print(A.mine, A.where)
assert (A.mine, A.where) == ("A", "__main__")
raise LookupError("done")
