# expect: LimitError
# sum() over a deque of tensors that broadcast to 900,000,000 elements
import collections

import torch

d = collections.deque([torch.ones(30000, 1), torch.ones(1, 30000)])
print(sum(d).shape)
