# expect: LimitError
# normal(loc, scale) broadcasting a column by a row to 4e8 elements
import numpy as np
rng = np.random.default_rng(0)
print(rng.normal(np.zeros((20000, 1)), np.ones((1, 20000))).shape)
