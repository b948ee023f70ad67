# expect: LimitError
# itertools.groupby compares consecutive items of a generator expression in C
import itertools
import functools
import operator
import math

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(list(itertools.groupby(x for x in [a, b])))
