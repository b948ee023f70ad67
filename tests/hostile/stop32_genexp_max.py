# expect: LimitError
# max() compares what a lazy generator expression gives, in C
import itertools
import functools
import operator
import math

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(max(x for x in [a, b]))
