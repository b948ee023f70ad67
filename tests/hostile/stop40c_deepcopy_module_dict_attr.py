# expect: LimitError
# a tensor held in a dict on a module: not counted when the module is copied (only result.buffers() are)
import copy
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {"t": torch.ones(4_000_000)}
m = M()
keep = [copy.deepcopy(m) for i in range(40)]
print(len(keep))
