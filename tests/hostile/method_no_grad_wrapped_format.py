# expect: ForbiddenError
# The same through a format field on the instance.
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    @torch.no_grad()
    def generate(self, x):
        return self.l(x)

print("{0.generate.__wrapped__.__globals__}".format(M()))
