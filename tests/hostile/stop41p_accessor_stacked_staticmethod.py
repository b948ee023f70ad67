# expect: ForbiddenError
# @staticmethod over @x.setter: the accessor evaluated as a decorator, reading the class body's property
class A:
    @property
    def x(self):
        return 1
    @staticmethod
    @x.setter
    def x(v):
        pass
print(A.x)
