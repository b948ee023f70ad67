# expect: ForbiddenError
# np.ndarray as a Module's forward: numpy's uninitialised memory, of any size, handed to
# the program as an array
import numpy as np
import torch.nn as nn


class M(nn.Module):
    forward = np.ndarray


a = M()((1000, 1000))
print(a.shape, (a != 0).sum())
