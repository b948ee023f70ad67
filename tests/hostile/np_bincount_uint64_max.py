# expect: LimitError
# the largest uint64 as the value: max + 1 counts, past int64 too
import numpy as np

print(np.bincount(np.array([2**64 - 1], dtype="uint64")).shape)
