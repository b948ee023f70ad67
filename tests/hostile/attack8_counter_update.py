# expect: LimitError
# Counter.update(mapping) adds the counts of each shared key in C
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
c = collections.Counter({"w": a})
c.update({"w": b})
