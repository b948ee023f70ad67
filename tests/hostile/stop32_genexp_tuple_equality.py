# expect: LimitError
# tuples made from generator expressions compare their items in C
import itertools
import functools
import operator
import math

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(tuple(x for x in [a]) == tuple(x for x in [b]))
