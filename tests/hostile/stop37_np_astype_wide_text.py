# expect: LimitError
# astype to a wide text dtype: 100,000 elements of 400 KB each
import numpy as np
a = np.zeros(100000).astype("U100000")
print(a.dtype)
