# expect: LimitError
import torch
from torch import nn


class Loop(nn.Module):
    def forward(self, x):
        return self(x)


print(Loop()(torch.ones(1)))
