# expect: ForbiddenError
# A program decorator on a Module's __call__-like dunder (__call__): refused, dunders stay plain.
def deco(f):
    return f


class D:
    @deco
    def __call__(self):
        return 1
