# expect: RecursionError|LimitError
# a setter that assigns itself: recursion through Python's setattr, bounded
class A:
    @property
    def v(self):
        return 1
    @v.setter
    def v(self, x):
        self.v = x
a = A()
a.v = 3
