# expect: ForbiddenError|AttributeError
# the property object read through the class attribute: its fset is the program's function wrapped
class A:
    @property
    def x(self):
        return 1
    @x.setter
    def x(self, v):
        pass
print(A.x.fset.__closure__)
