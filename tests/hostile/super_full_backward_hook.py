# expect: ForbiddenError
# super(M, m).register_backward_hook: the deprecated non-full hook is not admitted, by any path
import torch
from torch import nn
class M(nn.Module):
    def register_backward_hook(self, h):
        return None
    def forward(self, x):
        return x * 3
m = M()
super(M, m).register_backward_hook(lambda mod, gi, go: print("backward hook ran"))
x = torch.ones(2, requires_grad=True)
m(x).sum().backward()
print(x.grad)
