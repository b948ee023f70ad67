# expect: ForbiddenError|RuntimeError|KeyError
# a KeyError whose key is a Module with a raising extra_repr: error_info() repr()s the key
import torch
from torch import nn
class M(nn.Module):
    def extra_repr(self):
        return 1 / 0
d = {}
d[M()]
