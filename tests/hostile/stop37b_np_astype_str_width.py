# expect: LimitError
# a.astype(str): check_array_method sizes np.dtype(str), whose itemsize is 0 (flexible), so 4M float64 elements pass; numpy makes '<U32' (128 bytes each) = 512 MB, and the method's result is kept (no result check): three held = 1.5 GB against a 192 MB bound
import numpy as np
a = np.zeros(4000000)
kept = []
for i in range(3):
    kept.append(a.astype(str))
    print(i, kept[-1].dtype, kept[-1].size)
print(len(kept))
