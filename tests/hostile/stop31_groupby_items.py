# expect: LimitError
# itertools.groupby compares each item with the one before in C
import itertools

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(list(itertools.groupby([a, b])))
