# expect: ForbiddenError|KeyError
# torch.empty called through map(): no check at all on the call, same residue
import torch
from torch import nn
marker = torch.full((4096,), 31337.0)
del marker
y = list(map(torch.empty, [4096]))[0]
assert not bool((y == 31337.0).any()), "the previous tensor's values are visible"
assert float(y.abs().sum()) == 0.0, "uninitialised memory is visible"
raise KeyError("clean: no residue seen")
