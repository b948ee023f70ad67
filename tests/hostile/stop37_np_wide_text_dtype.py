# expect: LimitError
# four elements of 400 MB each: the element limit alone counts 4
import numpy as np
a = np.full(4, "x", dtype="U100000000")
print(a.shape)
