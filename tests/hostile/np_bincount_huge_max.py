# expect: LimitError
# one value makes a trillion counts (8 TB), allocated by numpy before anything returns
import numpy as np

print(np.bincount([10**12]).shape)
