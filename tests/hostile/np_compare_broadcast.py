# expect: LimitError
import numpy as np
a = np.ones(100000)
print((a[:, None] < a).sum())
