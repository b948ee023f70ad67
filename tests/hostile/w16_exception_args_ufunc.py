# expect: ForbiddenError
# numpy's ufunc errors carry the ufunc in .args: a real callable, run raw by the program
# (np.subtract broadcasting 4,000 x 4,000 here, past the per-array limit)
import numpy as np
try:
    np.subtract(np.array(["a"]), np.array(["b"]))
except TypeError as e:
    sub = e.args[0]
    big = sub(np.ones(4000), np.ones((4000, 1)))
    print(big.shape)
