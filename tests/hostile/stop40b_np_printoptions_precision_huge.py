# expect: LimitError
# precision of 10^6 digits per element
import numpy as np
np.set_printoptions(precision=10**6, floatmode="fixed")
print(np.zeros(10))
