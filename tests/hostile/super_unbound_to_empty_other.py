# expect: ForbiddenError|KeyError
# super(M, M).to_empty is nn.Module.to_empty unbound: applied to a plain nn.Linear
import torch
from torch import nn
class M(nn.Module):
    def to_empty(self, device):
        return self
marker = torch.full((4096,), 31337.0)
del marker
lin = nn.Linear(64, 64)
super(M, M).to_empty(lin, device="cpu")
y = lin.weight.detach()
assert not bool((y == 31337.0).any()), "previous values visible"
assert float(y.abs().sum()) == 0.0, "uninitialised memory is visible"
raise KeyError("clean")
