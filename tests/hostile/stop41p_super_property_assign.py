# expect: AttributeError
# `super().x = v` inside a setter: AttributeError, as CPython's ('super' object has no attribute 'x').
class A:
    @property
    def x(self):
        return 1
class B(A):
    @property
    def y(self):
        return super().x
    @y.setter
    def y(self, v):
        super().x = v
b = B()
print(b.y)
b.y = 3
