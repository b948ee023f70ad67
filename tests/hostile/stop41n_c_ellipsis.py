# expect: ForbiddenError
# np.c_[...]: the Ellipsis is no array.
import numpy as np
x = np.c_[...]
