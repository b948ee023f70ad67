# expect: ForbiddenError
# override_repr: numpy would call the program's function for every array printed
import numpy as np
np.set_printoptions(override_repr=lambda a: "x" * 10**8)
print(np.ones(3))
