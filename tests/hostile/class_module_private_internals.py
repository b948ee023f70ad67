# expect: ForbiddenError
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self._cache = 1  # its own: fine

    def forward(self, x):
        return x


m = M()
print(m._cache)
print(m._forward_hooks)
