# expect: TypeError|ForbiddenError
# weights of the program's objects, whose __float__ numpy would call from C
import numpy as np


class W:
    def __float__(self):
        while True:
            pass


print(np.bincount([0, 1], weights=[W(), W()]))
