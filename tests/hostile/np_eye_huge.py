# expect: LimitError
import numpy as np
print(np.eye(5000).shape)
