# expect: LimitError
# itertools.starmap adds pairs a generator expression gives
import itertools
import functools
import operator
import math

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(list(itertools.starmap(operator.add, ((x, y) for x in [a] for y in [b]))))
