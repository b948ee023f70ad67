# expect: ValueError|LimitError
import numpy as np
a = np.ones(3)
a += np.ones((100000, 3))
print(a)
