# expect: ForbiddenError
# a reduction asked for an object result: numpy would add the elements as Python objects
import numpy as np
a = np.ones(3)
print(a.sum(dtype="O"))
