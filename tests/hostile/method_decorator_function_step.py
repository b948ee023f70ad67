# expect: ForbiddenError
# A Function's forward decorated with @torch.no_grad(): torch calls the steps as staticmethods.
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    @torch.no_grad()
    def generate(self, x):
        return self.l(x)

class F(torch.autograd.Function):
    @staticmethod
    @torch.no_grad()
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g


print(F.apply(torch.ones(2, requires_grad=True)))
