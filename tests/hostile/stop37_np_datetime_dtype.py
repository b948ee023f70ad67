# expect: ForbiddenError
# dates: numpy's datetime64 scalars and their class
import numpy as np
d = np.zeros(1, dtype="M8[s]")
D = type(d[0])
print(D(10 ** 15, "Y"))
