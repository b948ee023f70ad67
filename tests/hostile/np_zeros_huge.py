# expect: LimitError
import numpy as np
print(np.zeros((100000, 100000)).shape)
