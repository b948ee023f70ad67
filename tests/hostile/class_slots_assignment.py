# expect: ForbiddenError
class A:
    __slots__ = ("x",)
