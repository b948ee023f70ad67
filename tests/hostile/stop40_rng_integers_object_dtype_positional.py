# expect: ForbiddenError
# Generator.integers(low, high, size, dtype) with an object dtype given positionally
import numpy as np
print(np.random.default_rng(0).integers(0, 10, 3, "O"))
