# expect: LimitError
# Generator.choice(a2d, size=k, axis=0) makes k rows of a, not k elements: the rule checks
# k only, and numpy allocates 1,000,000 x 340 float64s (2.7 GB) before the result check
import numpy as np
rng = np.random.default_rng(0)
a = np.zeros((2, 340))
print(rng.choice(a, size=1000000, axis=0).shape)
