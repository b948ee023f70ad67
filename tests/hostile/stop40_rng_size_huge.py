# expect: LimitError
# Generator.standard_normal / random / exponential with a size over the element limit
import numpy as np
rng = np.random.default_rng(0)
print(rng.exponential(1.0, (2000, 2000, 2)).shape)
