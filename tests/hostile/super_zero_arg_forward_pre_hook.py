# expect: ForbiddenError
# zero-argument super() inside a method reaches Module.register_forward_pre_hook
import torch
from torch import nn
class M(nn.Module):
    def register_forward_pre_hook(self, h):
        return super().register_forward_pre_hook(h)
    def forward(self, x):
        return x + 1
m = M()
m.register_forward_pre_hook(lambda mod, args: (args[0] * 100,))
print(m(torch.ones(1)))
