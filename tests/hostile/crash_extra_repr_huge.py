# expect: LimitError
# extra_repr returns a 100k string; an exception message repeats it through 50 submodules (5 MB message)
import torch
from torch import nn
class M(nn.Module):
    def extra_repr(self):
        return "x" * 100000
seq = nn.Sequential(*[M() for i in range(50)])
raise ValueError(seq)
