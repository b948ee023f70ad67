# expect: ForbiddenError
import numpy as np
print(np.ones(3).dumps())
