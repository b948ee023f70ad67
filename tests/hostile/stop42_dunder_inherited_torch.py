# expect: ForbiddenError
# A program class built on nn.Sequential wrote no __getitem__: torch's is not read as its.
import torch
from torch import nn
class S(nn.Sequential):
    pass
s = S(nn.Linear(2, 2))
print(s.__getitem__)
