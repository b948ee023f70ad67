# expect: ForbiddenError
# The wrapper's closure (where the checked function is kept) by name.
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    @torch.no_grad()
    def generate(self, x):
        return self.l(x)

print(getattr(M.generate, "__closure__"))
