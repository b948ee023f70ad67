# expect: LimitError
# copies of numpy arrays: the walk bounds one call, but only copied tensors count toward the budget; 12 copies of a 4M float64 array are 384 MB, twice memory_mb, unseen by the budget and between memory checks
import copy
import numpy as np
a = np.ones(4_000_000)
keep = []
for i in range(12):
    keep.append(copy.deepcopy(a))
print(len(keep))
