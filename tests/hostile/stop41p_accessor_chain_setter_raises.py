# expect: ValueError
# @x.deleter, then @x.getter, then @x.setter (odd order, each a new property): del runs, the new getter answers, the setter's own error
class A:
    @property
    def x(self):
        return 1
    @x.deleter
    def x(self):
        print("del")
    @x.getter
    def x(self):
        return 2
    @x.setter
    def x(self, v):
        raise ValueError("no")
a = A()
del a.x
if a.x != 2:
    raise KeyError("getter")
a.x = 3
