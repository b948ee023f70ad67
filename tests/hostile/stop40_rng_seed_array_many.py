# expect: ValueError
# default_rng(seed) with a seed array of 4M numbers: refused as over 624 numbers
# (today after turning it into a Python list of 4M numpy scalars first)
import numpy as np
print(np.random.default_rng(np.zeros(4000000, dtype=np.int64)).random())
