# expect: ForbiddenError
# m.forward = F.pad: replacing a torch Module's method is refused (ForbiddenError), so the unchecked Module call never runs
import torch
from torch import nn
m = nn.Identity()
m.forward = torch.nn.functional.pad
y = m(torch.ones(1, 1), (1499, 1500, 1499, 1500))
print(y.numel())
