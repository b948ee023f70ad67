# expect: ForbiddenError
# numpy's Generator stand-in (refused by the walk) hidden in a slice: copied with its real Generator
import copy
import numpy as np
r = copy.deepcopy(slice(None, np.random.default_rng(0))).stop
print(r, r.random())
