# expect: ForbiddenError|KeyError
# x.new_empty(size) reuses the freed marker block
import torch
from torch import nn
marker = torch.full((4096,), 31337.0)
del marker
y = torch.zeros(1).new_empty((4096,))
assert not bool((y == 31337.0).any()), "the previous tensor's values are visible"
assert float(y.abs().sum()) == 0.0, "uninitialised memory is visible"
raise KeyError("clean: no residue seen")
