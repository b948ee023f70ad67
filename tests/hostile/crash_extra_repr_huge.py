# expect: ValueError
# extra_repr returns a 100k string through 50 submodules; error messages repr only data, so the message is '<Sequential object>', not 5 MB
import torch
from torch import nn
class M(nn.Module):
    def extra_repr(self):
        return "x" * 100000
seq = nn.Sequential(*[M() for i in range(50)])
raise ValueError(seq)
