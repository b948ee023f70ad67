# expect: ForbiddenError
# an object array: ndarray.__deepcopy__ deep-copies each element, which the walk (it counts .size) never sees
import copy
import numpy as np
def g():
    yield 1
a = np.array([g(), g()], dtype=object)
print(copy.deepcopy(a))
