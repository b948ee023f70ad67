# expect: LimitError
# max() compares an array with a list read as an array
import numpy as np

b = np.ones((1, 30000))
z = [[0]] * 30000  # numpy reads it as a 30000x1 array
print(max([b, z]))
