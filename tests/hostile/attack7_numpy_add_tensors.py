# expect: LimitError
# numpy reads tensors as arrays: np.add of two tensors broadcasts in C (here to
# 900,000,000 elements; a program that catches numpy's MemoryError would go on)
import numpy as np
import torch

try:
    print(np.add(torch.zeros(30000, 1), torch.ones(1, 30000)).shape)
except Exception:
    print("numpy allocated what it could")
