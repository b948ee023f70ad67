# expect: ForbiddenError
import numpy as np
b = np.ones(3).astype(object)
print(b)
