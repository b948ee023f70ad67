# expect: ForbiddenError|KeyError
# torch.empty in float64 over the freed float32 block (2048 doubles = 16 KiB)
import torch
from torch import nn
marker = torch.full((4096,), 31337.0)
del marker
y = torch.empty(2048, dtype=torch.float64).float()
assert not bool((y == 31337.0).any()), "the previous tensor's values are visible"
assert float(y.abs().sum()) == 0.0, "uninitialised memory is visible"
raise KeyError("clean: no residue seen")
