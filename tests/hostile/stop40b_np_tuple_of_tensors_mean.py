# expect: LimitError
# np.mean of a tuple of 30 tensors of 4M elements: 120,000,000 elements read into one array in C, unrefused
import numpy as np
import torch
t = torch.ones(4000000)
print(np.mean((t,) * 30))
