# expect: ForbiddenError
# getattr(Cls.x, "fset") through the builtin, not the attribute syntax
class A:
    @property
    def x(self):
        return 1
    @x.setter
    def x(self, v):
        pass
print(getattr(A.x, "fset"))
