# expect: LimitError
# a dict compared with a defaultdict: the values of the common keys, in C
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
d = collections.defaultdict(list)
d["w"] = b
print({"w": a} == d)
