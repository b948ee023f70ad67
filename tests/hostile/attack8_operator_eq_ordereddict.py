# expect: LimitError
# operator.eq compares OrderedDicts value by value in C
import collections
import operator

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(operator.eq(collections.OrderedDict(w=a), collections.OrderedDict(w=b)))
