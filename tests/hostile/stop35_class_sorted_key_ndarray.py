# expect: ForbiddenError
# sorted calls its key in C: key=np.ndarray made uninitialised arrays (np.ndarray(...) is
# refused when the program calls it)
import numpy as np

print(sorted([(4,), (3,)], key=np.ndarray))
