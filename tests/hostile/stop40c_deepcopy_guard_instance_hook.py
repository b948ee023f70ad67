# expect: ForbiddenError
# an instance attribute named __deepcopy__ (deepcopy reads it with getattr, calling the program's function with its memo)
import copy
class A:
    def __init__(self):
        self.x = 1
def f(memo):
    return memo
a = A()
a.__deepcopy__ = f
print(copy.deepcopy(a))
