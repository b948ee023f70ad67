# expect: LimitError
import numpy as np
a = np.ones((1000, 1000))
rows = a[[0] * 1000000]
print(rows.shape)
