# expect: LimitError|RuntimeError
import numpy as np
import torch
x = torch.ones(100000)
x += np.ones((100000, 1))
print(x.shape)
