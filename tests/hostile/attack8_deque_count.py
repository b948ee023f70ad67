# expect: LimitError
# deque.count compares its argument with each item in C
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(collections.deque([b]).count(a))
