# expect: TypeError
# a program object as an option: numpy would read it by calling it from C
import numpy as np
class P:
    def __int__(self):
        return 10**7
np.set_printoptions(precision=P())
print(np.ones(3) / 3)
