# expect: LimitError
# numpy's integers are sizes to torch, but the size check counted Python ints only: the
# allocation (40 GB here) was tried before anything refused it
import numpy as np
import torch
n = np.int64(100000)
x = torch.FloatTensor(n, n)
print(x.shape)
