# expect: LimitError
# a nan string of a million characters, written once per element
import numpy as np
np.set_printoptions(nanstr="N" * 10**6)
print(np.full(1000, np.nan))
