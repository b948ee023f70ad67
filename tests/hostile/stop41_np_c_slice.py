# expect: ForbiddenError
# np.c_'s ranges written as slices (np.c_[0:10**12]) are not taken: only arrays.
import numpy as np
x = np.c_[0:10**12]
