# expect: LimitError
# RandomState.choice(n, k, replace=False) permutes the whole of range(n)
import numpy as np
print(np.random.RandomState(0).choice(10**8, 3, replace=False))
