# expect: LimitError
# np.ones through functools.partial
import functools
import numpy as np
f = functools.partial(np.ones, (100000, 100000))
print(f().shape)
