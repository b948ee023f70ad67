# expect: LimitError
# m.forward = F.pad: a Module call pads one element to 3000x3000 (9M) with no size check
import torch
from torch import nn
m = nn.Identity()
m.forward = torch.nn.functional.pad
y = m(torch.ones(1, 1), (1499, 1500, 1499, 1500))
print(y.numel())
