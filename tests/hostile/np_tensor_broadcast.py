# expect: LimitError
# a tensor times an array: torch broadcasts the array in, sized first all the same
import numpy as np
import torch
print((torch.ones(100000) * np.ones((100000, 1))).shape)
