# expect: ForbiddenError
# numpy.ndarray(shape) hands out uninitialised memory: heap pointers, an earlier job's data
import numpy as np
a = np.ndarray((64,), dtype=np.int64)
print(a)
