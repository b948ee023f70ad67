# expect: ForbiddenError
# super(M, m).register_full_backward_hook: a backward hook the recorder never sees
import torch
from torch import nn
class M(nn.Module):
    def register_full_backward_hook(self, h):
        return None
    def forward(self, x):
        return x * 3
m = M()
super(M, m).register_full_backward_hook(lambda mod, gi, go: print("backward hook ran"))
x = torch.ones(2, requires_grad=True)
m(x).sum().backward()
print(x.grad)
