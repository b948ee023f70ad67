# expect: ForbiddenError|TypeError
# HOLE: meshgrid returns a tuple, which result_array does not check: a slice (or None) input comes back as an object-dtype array.
import numpy as np
g = np.meshgrid(slice(0, 3), None)
print(g[0].dtype)
