# expect: ForbiddenError|RuntimeError|ValueError
# raise ValueError(m): error_info() calls str(exc), which calls the program's extra_repr, which raises
import torch
from torch import nn
class M(nn.Module):
    def extra_repr(self):
        raise RuntimeError("boom in extra_repr")
raise ValueError(M())
