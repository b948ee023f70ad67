# expect: ForbiddenError
# A slice whose bound is a program object: numpy would call its __index__ from C.
import numpy as np


class I:
    def __index__(self):
        print("ran inside numpy")
        return 2


x = np.zeros(3)
x[0:I()] = 1.0
