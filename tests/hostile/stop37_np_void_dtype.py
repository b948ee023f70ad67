# expect: ForbiddenError
# raw void elements, whose scalar class np.void(n) makes an n-byte scalar with no size check
import numpy as np
V = type(np.zeros(1, dtype="V8")[0])
x = V(2000000000)
print(np.array([x, x]).nbytes)
