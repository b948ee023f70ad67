# expect: ForbiddenError
import torch
from torch import nn
m = nn.Linear(2, 2)
print(m.state_dict().__reduce__())
