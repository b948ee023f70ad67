# expect: ForbiddenError|KeyError
# nn.Parameter(torch.empty(n)) keeps the uninitialised block as a trainable leaf
import torch
from torch import nn
marker = torch.full((4096,), 31337.0)
del marker
y = nn.Parameter(torch.empty(4096)).detach()
assert not bool((y == 31337.0).any()), "the previous tensor's values are visible"
assert float(y.abs().sum()) == 0.0, "uninitialised memory is visible"
raise KeyError("clean: no residue seen")
