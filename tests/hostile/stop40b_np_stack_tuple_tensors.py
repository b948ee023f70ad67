# expect: LimitError
# np.stack of a tuple of tensors: each part sized
import numpy as np
import torch
t = (torch.zeros(3000, 1000),) * 3
print(np.stack(t).shape)
