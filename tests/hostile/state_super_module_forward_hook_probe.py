# expect: ForbiddenError|KeyError
# a forward hook attached with super() changes every later call of the module; the probe sees it
import torch
from torch import nn
class M(nn.Module):
    def register_forward_hook(self, h):
        return None
    def forward(self, x):
        return x + 1
m = M()
super(M, m).register_forward_hook(lambda mod, i, o: o * 1000)
out = m(torch.zeros(1))
assert float(out) == 1.0, "a hidden forward hook changed the module's output"
raise KeyError("clean")
