# expect: LimitError
# math.prod multiplies its items in C: two tensors broadcast to 900,000,000 elements
import math

import torch

print(math.prod(t for t in [torch.zeros(30000, 1), torch.ones(1, 30000)]).shape)
