# expect: LimitError
# Counter.total() adds up all the counts in C
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(collections.Counter({"x": a, "y": b}).total())
