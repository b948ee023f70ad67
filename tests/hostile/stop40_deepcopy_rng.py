# expect: ForbiddenError
# a numpy Generator stand-in copied: refused rather than shared (CPython copies its state)
import copy
import numpy as np
r = np.random.default_rng(0)
print(copy.deepcopy(r).random())
