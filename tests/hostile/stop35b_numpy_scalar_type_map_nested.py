# expect: ForbiddenError
# numpy's scalar types were left unchecked when handed to Python's code: map(np.float64,
# [nested]) made an array of every item of a list nested by repetition, 40,000,000
# float64s (320 MB) from 400 small lists, where np.float64(...) called by the program
# takes one number (100**4 items: 800 MB, ok)
import numpy as np

a = [0.5] * 100
b = [a] * 100
c = [b] * 100
d = [c] * 40
r = list(map(np.float64, [d]))
print(r[0].shape, r[0].sum())
