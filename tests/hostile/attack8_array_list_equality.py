# expect: LimitError
# [array] == [list]: numpy compares the array with the list read as an array, broadcasting to 900,000,000 bools
import numpy as np

b = np.ones((1, 30000))
z = [[0]] * 30000  # numpy reads it as a 30000x1 array
print([b] == [z])
