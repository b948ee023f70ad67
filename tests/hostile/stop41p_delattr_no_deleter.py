# expect: AttributeError
# setattr/getattr/delattr builtins on a property: the setter runs, delattr without a deleter is Python's AttributeError
class A:
    @property
    def x(self):
        return 1
    @x.setter
    def x(self, v):
        print("set", v)
a = A()
setattr(a, "x", 5)
print(getattr(a, "x"))
delattr(a, "x")
