# expect: ForbiddenError
# str.format stored on a Module instance (set_attr admits any value on a Module) and called as m.fmt(x)
import torch
from torch import nn
F = torch.nn.functional
m = nn.Identity()
m.fmt = "{0.__globals__[torch].os.environ}".format
print(m.fmt(F.relu)[:60])
