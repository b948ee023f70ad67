# expect: LimitError
# itertools.accumulate adds its items in C when given no function
import itertools

import torch

print(list(itertools.accumulate([torch.ones(1, 30000)], initial=torch.zeros(30000, 1))))
