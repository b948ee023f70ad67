# expect: ForbiddenError
# @property over @torch.no_grad(): a property whose getter is torch's wrapper; not combined.
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    @torch.no_grad()
    def generate(self, x):
        return self.l(x)

class D:
    @property
    @torch.no_grad()
    def value(self):
        return 1


print(D().value)
