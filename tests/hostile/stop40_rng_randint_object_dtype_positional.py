# expect: ForbiddenError
# RandomState.randint(low, high, size, dtype) with an object dtype given positionally
import numpy as np
print(np.random.RandomState(0).randint(0, 10, 3, "O"))
