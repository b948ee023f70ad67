# expect: ForbiddenError
# the class an array answers with, called with a buffer and zero strides: a view of 10**12
# elements over 32 bytes, whose sum runs in C past any time limit
import numpy as np
a = np.zeros(4)
view = a.__class__((10**12,), dtype=np.uint8, buffer=a, strides=(0,))
print(view.sum())
