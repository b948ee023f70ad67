# expect: ForbiddenError|LimitError
# a numpy scalar type called with a sequence makes an array, unsized
import numpy as np
big = np.float64([[0.5] * 100000] * 100)
print(big.shape)
