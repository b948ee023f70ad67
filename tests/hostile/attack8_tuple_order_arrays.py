# expect: LimitError
# (array,) < (list,) compares the first items with == in C
import numpy as np

b = np.ones((1, 30000))
z = [[0]] * 30000  # numpy reads it as a 30000x1 array
print((b,) < (z,))
