# expect: LimitError
import numpy as np
print(np.outer(np.ones(3000), np.ones(3000)).shape)
