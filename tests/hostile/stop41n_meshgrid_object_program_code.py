# expect: ForbiddenError
# HOLE: an object array from meshgrid holds a program object (ndarray item assignment is unchecked); numpy then calls its __add__ from C.
import numpy as np
x = np.meshgrid(slice(0, 3))[0]


class A:
    def __add__(self, other):
        raise ZeroDivisionError("program code run by numpy")


x[0] = A()
y = x + 1
