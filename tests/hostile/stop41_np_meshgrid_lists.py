# expect: LimitError
# The same with lists (numpy would build the arrays from them first).
import numpy as np
r = list(range(100000))
g = np.meshgrid(r, r)
