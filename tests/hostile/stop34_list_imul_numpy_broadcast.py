# expect: LimitError
# xs *= array: Python tries the array first, which broadcasts the list into an array in
# C; the in-place repeat path skipped the array check `xs * array` has, so a 1000 x
# 100,000 array (100,000,000 elements, 800 MB) was built before the size check after it
import numpy as np
xs = [[0.0]] * 1000
xs *= np.ones((1, 100000))
print(xs.shape)
