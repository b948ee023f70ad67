# expect: LimitError
# two OrderedDicts compare the values of their common keys in C (a dict subclass)
import collections

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(collections.OrderedDict(w=a) == collections.OrderedDict(w=b))
