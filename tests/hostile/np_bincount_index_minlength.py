# expect: TypeError|ForbiddenError
# minlength an object of the program's, whose __int__ numpy would call from C
import numpy as np


class N:
    def __int__(self):
        return 10**10


print(np.bincount([1], minlength=N()))
