# expect: ForbiddenError|AttributeError
# .setter of something that is not a property (a staticmethod made above)
class A:
    @staticmethod
    def f():
        return 1
    @f.setter
    def f(self, v):
        pass
