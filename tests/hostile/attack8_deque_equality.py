# expect: LimitError
# two deques compare item by item in C, as lists do
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(collections.deque([a]) == collections.deque([b]))
