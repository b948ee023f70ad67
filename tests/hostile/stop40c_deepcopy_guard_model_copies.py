# expect: LimitError
# copies of a 4M-parameter model: each copy's parameters are adopted and counted
import copy
import torch
from torch import nn
m = nn.Linear(2000, 2000)
keep = []
for i in range(12):
    keep.append(copy.deepcopy(m))
print(len(keep))
