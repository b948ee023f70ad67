# expect: ForbiddenError
# @torch.no_grad() on __getitem__: Python calls a dunder itself, so it stays plain.
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
    @torch.no_grad()
    def __getitem__(self, i):
        return i
