# expect: LimitError
# np.random.choice(n, k, replace=False) permutes the whole of range(n) in C first
import numpy as np

print(np.random.choice(10**8, 3, replace=False))
