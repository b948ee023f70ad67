# expect: ForbiddenError|KeyError
# torch.empty right after a marker tensor is freed: malloc hands back the same block, values and all
import torch
from torch import nn
marker = torch.full((4096,), 31337.0)
del marker
y = torch.empty(4096)
assert not bool((y == 31337.0).any()), "the previous tensor's values are visible"
assert float(y.abs().sum()) == 0.0, "uninitialised memory is visible"
raise KeyError("clean: no residue seen")
