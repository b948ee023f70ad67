# expect: ForbiddenError
# A @torch.no_grad() method's __wrapped__ (torch's functools.wraps): the program's function or
# torch's wrapper as raw callables.
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    @torch.no_grad()
    def generate(self, x):
        return self.l(x)

m = M()
print(m.generate.__wrapped__)
