# expect: ForbiddenError
# np.format_float_positional with 10^7 digits: not exposed
import numpy as np
print(np.format_float_positional(1.5, precision=10**7))
