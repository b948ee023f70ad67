# expect: ForbiddenError
# torch.jit.ignore on a Module's method: TorchScript's, not in gradtrace's torch.
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    @torch.no_grad()
    def generate(self, x):
        return self.l(x)

class N(nn.Module):
    @torch.jit.ignore
    def f(self):
        return 1
