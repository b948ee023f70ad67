# expect: LimitError
import numpy as np
print((np.ones((3000, 1)) @ np.ones((1, 3000))).shape)
