# expect: LimitError
import numpy as np
a = np.ones(3000000)
print(np.concatenate([a, a, a]).shape)
