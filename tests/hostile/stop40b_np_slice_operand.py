# expect: ForbiddenError|TypeError|ValueError
# a slice as numpy's operand: an object array
import numpy as np
print(np.array(slice(0, 10**9)))
