# expect: ForbiddenError
# An array's item assignment: numpy would call the program object's __float__ from C.
import numpy as np


class A:
    def __float__(self):
        print("ran inside numpy")
        return 1.0


x = np.zeros(3)
x[0] = A()
