# expect: LimitError
# A class set as a Module's forward: torch.Tensor(n, n) called from torch's Module.__call__,
# unsized and unzeroed (m(100, 100) showed 9,611 nonzero elements of a freed buffer)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.forward = torch.Tensor

    def forward(self, x):
        return x


m = M()
print((m(100, 100) != 0).sum(), m(100_000, 100_000).shape)
