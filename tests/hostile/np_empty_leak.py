# expect: AssertionError
# np.empty is zeros here: never memory an earlier job left behind
import numpy as np
a = np.empty(100000)
assert a.any(), "zeros, as expected"
