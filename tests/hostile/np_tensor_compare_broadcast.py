# expect: LimitError
import numpy as np
import torch
print((torch.ones(100000) < np.ones((100000, 1))).shape)
