# expect: LimitError
# a precision of 10**7 digits: each element written 10 million characters wide
import numpy as np
np.set_printoptions(precision=10**7, floatmode="fixed")
print(np.ones(30) / 3)
