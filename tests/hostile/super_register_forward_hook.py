# expect: ForbiddenError
# super(M, m).register_forward_hook: M defines the name, so the check admits it, and the real Module method runs
import torch
from torch import nn
class M(nn.Module):
    def register_forward_hook(self, h):
        return None
    def forward(self, x):
        return x * 2
m = M()
super(M, m).register_forward_hook(lambda mod, i, o: print("forward hook ran"))
print(m(torch.ones(1)))
