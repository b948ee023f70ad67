# expect: ForbiddenError
# super(B, type(self)).x.fset(self, v): the base's property through a two-class super, its fset called
class A:
    @property
    def x(self):
        return self._x
    @x.setter
    def x(self, v):
        self._x = v
class B(A):
    @property
    def x(self):
        return super().x * 2
    @x.setter
    def x(self, v):
        super(B, type(self)).x.fset(self, v + 1)
b = B()
b.x = 3
