# expect: ForbiddenError|AttributeError
import numpy as np
print(np.ctypeslib.as_ctypes(np.ones(3)))
