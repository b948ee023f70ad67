# expect: ForbiddenError
# An array indexed by a program object: numpy would call its __index__ from C.
import numpy as np


class I:
    def __index__(self):
        print("ran inside numpy")
        return 0


x = np.zeros(3)
print(x[I()])
