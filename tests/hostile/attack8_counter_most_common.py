# expect: LimitError
# Counter.most_common() sorts by count: compares the counts in C
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(collections.Counter({"x": a, "y": b}).most_common())
