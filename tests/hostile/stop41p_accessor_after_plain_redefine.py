# expect: AttributeError|ForbiddenError
# x a property, then redefined as a plain method, then @x.setter: CPython says 'function' object has no attribute 'setter'
class A:
    @property
    def x(self):
        return 1
    def x(self):
        return 2
    @x.setter
    def x(self, v):
        pass
