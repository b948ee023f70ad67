# expect: ForbiddenError
import numpy as np
a = np.ones(3)
print(bytes(a.data))
