# expect: ForbiddenError|KeyError
# super(M, m).to_empty when M defines to_empty: nn.Module.to_empty gives uninitialised parameters
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(4096))
    def to_empty(self, device):
        return self
marker = torch.full((4096,), 31337.0)
del marker
m = M()
super(M, m).to_empty(device="cpu")
y = m.w.detach()
assert not bool((y == 31337.0).any()), "the previous tensor's values are visible"
assert float(y.abs().sum()) == 0.0, "uninitialised memory is visible"
raise KeyError("clean")
