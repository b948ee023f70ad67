# expect: LimitError
import numpy as np
print(np.arange(0, 1, 1e-9).shape)
