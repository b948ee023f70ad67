# expect: LimitError
# [0] * np.int64(n) repeats the list in C: checked as [0] * n is, before it is made
import numpy as np
xs = [0.0] * np.int64(10**9)
