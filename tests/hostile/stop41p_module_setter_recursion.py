# expect: LimitError|RecursionError
# a Module property whose setter assigns itself, first run from __init__ through torch's Module.__setattr__
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.v = 1
    @property
    def v(self):
        return 0
    @v.setter
    def v(self, val):
        self.v = val
M()
