# expect: RuntimeError
# a non-leaf tensor (inside a module's attribute): torch refuses the deepcopy
import copy
import torch
from torch import nn
w = torch.ones(3, requires_grad=True)
m = nn.Linear(3, 3)
m.cache = [w * 2]
print(copy.deepcopy(m))
