# expect: LimitError
# set_printoptions taken as a value and called by map: checked as the direct call is
import numpy as np
list(map(np.set_printoptions, [8], [10**9]))
print(np.zeros(4_000_000))
