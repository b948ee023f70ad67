# expect: ForbiddenError
# type(type(obj).x): the real `property` class (property(fget) would wrap anything)
class A:
    @property
    def x(self):
        return 1
P = type(type(A()).x)
print(P(print))
