# expect: LimitError
# `in` compares its left side with each item a generator expression gives
import itertools
import functools
import operator
import math

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print([a] in ([b] for _ in range(1)))
