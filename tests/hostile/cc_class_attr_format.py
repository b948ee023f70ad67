# expect: ForbiddenError
# str.format stored as a class attribute of a user Module: M.fmt(x) has owner M (a type), not a str
import torch
from torch import nn
F = torch.nn.functional
class M(nn.Module):
    fmt = "{0.__globals__[torch].os.environ}".format
print(M.fmt(F.relu)[:60])
