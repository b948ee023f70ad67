# expect: LimitError
# min() compares the keys of a generator expression's items in C
import itertools
import functools
import operator
import math

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(min((x for x in [a, b]), key=lambda t: t))
