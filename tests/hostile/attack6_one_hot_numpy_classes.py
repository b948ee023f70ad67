# expect: LimitError
# one_hot's size check read num_classes only as a Python int: numpy's integers (and a
# one-element tensor) went unchecked, and 300 million classes were made (2.4 GB) first
import numpy as np
import torch
import torch.nn.functional as F
print(F.one_hot(torch.tensor([0]), np.int64(300_000_000)).shape)
