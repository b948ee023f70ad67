# expect: ForbiddenError
# a record dtype with an object field: the array is not of dtype object, its field is
import numpy as np
z = np.zeros(2, dtype=[("a", "O")])
z[0] = ([1, 2],)
print(z["a"].sum())
