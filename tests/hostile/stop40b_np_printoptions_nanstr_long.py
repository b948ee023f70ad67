# expect: LimitError
# a nanstr of 10,000 characters written for each of a million NaNs
import numpy as np
np.set_printoptions(nanstr="n" * 10000, threshold=100000)
print(np.full(100000, np.nan))
