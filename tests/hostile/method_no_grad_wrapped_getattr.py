# expect: ForbiddenError
# The decorated method's __wrapped__ / __globals__ / __func__ by name, read from the class.
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    @torch.no_grad()
    def generate(self, x):
        return self.l(x)

print(getattr(M.generate, "__globals__"), getattr(M().generate, "__func__"))
