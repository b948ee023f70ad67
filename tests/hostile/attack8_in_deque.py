# expect: LimitError
# `x in deque` compares x with each item in C
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(a in collections.deque([b]))
