# expect: LimitError
# an array plus a list of 30 tensors of 4M elements: numpy builds the 120,000,000-element operand (seconds, ~0.5-1 GB) before the result is refused
import numpy as np
import torch
t = torch.ones(4000000)
a = np.ones(1)
b = a + [t] * 30
print(b.shape)
