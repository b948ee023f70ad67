# expect: ForbiddenError|AttributeError|TypeError
# __new__ set on a program class after its definition: the copier calls cls.__new__(cls)
import copy
class A:
    def __init__(self):
        self.x = 1
A.__new__ = print
b = copy.deepcopy(A())
