# expect: ForbiddenError
# a dunder given as a property accessor: Python would call it itself
class A:
    @property
    def x(self):
        return 1
    @x.setter
    def __len__(self, v):
        pass
print(len(A()))
