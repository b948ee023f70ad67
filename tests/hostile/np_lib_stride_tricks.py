# expect: ForbiddenError|AttributeError
import numpy as np
a = np.lib.stride_tricks.as_strided(np.ones(1), shape=(10**9,), strides=(0,))
print(a.sum())
