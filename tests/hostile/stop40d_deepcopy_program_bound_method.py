# expect: ZeroDivisionError
# divergence: an object keeping its own bound method (self.f = self.get); CPython's deepcopy rebinds it to the copy, gradtrace shares the Checked (still bound to the original)
import copy
class A:
    def __init__(self):
        self.v = 1
        self.f = self.get
    def get(self):
        return self.v
a = A()
b = copy.deepcopy(a)
b.v = 2
if b.f() != 2:
    raise KeyError("the copy's method is still bound to the original")
x = 1 / 0
