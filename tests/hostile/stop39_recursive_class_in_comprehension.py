# expect: LookupError
# the same class statement built again while it is being built (from its comprehension's
# first iterable): each build reads only its own namespace
def make(n):
    class A:
        depth = n
        kids = [k for k in ([make(depth - 1)] if depth > 0 else [])]
        again = depth
        chain = [depth] + (kids[0].chain if kids else [])

    return A


A = make(3)
print(A.depth, A.again, A.chain)
assert A.chain == [3, 2, 1, 0], A.chain
raise LookupError("done")
