# expect: LimitError
# Generator.permutation(n) makes range(n) whole
import numpy as np
print(np.random.default_rng(0).permutation(10**8)[:3])
