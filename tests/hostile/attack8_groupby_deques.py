# expect: LimitError
# itertools.groupby compares each deque with the one before in C
import collections
import itertools

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(list(itertools.groupby([collections.deque([a]), collections.deque([b])])))
