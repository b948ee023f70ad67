# expect: ForbiddenError
# m.forward = str.format: nn.Module.__call__ calls it from torch, call_module checks nothing
import torch
from torch import nn
F = torch.nn.functional
m = nn.Identity()
m.forward = "{0.__globals__[torch].os.environ}".format
print(m(F.relu)[:60])
