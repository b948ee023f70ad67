# expect: LimitError
# sorted() compares deques item by item in C
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(sorted([collections.deque([a]), collections.deque([b])]))
