# expect: LimitError
# Counter + Counter adds the counts of each shared key in C: 3.6 GB
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(collections.Counter({"w": a}) + collections.Counter({"w": b}))
