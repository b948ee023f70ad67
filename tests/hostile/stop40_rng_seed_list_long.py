# expect: ValueError
# a seed list longer than 624 numbers
import numpy as np
print(np.random.default_rng([1] * 100000).random())
