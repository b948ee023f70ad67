# expect: ForbiddenError
# zero-argument super() inside a method reaching Module.to_empty (uninitialised memory)
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(1000))
    def to_empty(self, device):
        return super().to_empty(device=device)
m = M()
m.to_empty("cpu")
print(m.w[:5])
