# expect: LimitError
# list equality compares the deques it holds item by item
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print([collections.deque([a])] == [collections.deque([b])])
