# expect: LimitError
# a module's plain tensor attribute (not a parameter, not a buffer): a copied module counts only its buffers, so 40 copies of a 4M-element tensor (640 MB) are never counted
import copy
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.big = torch.ones(4_000_000)
m = M()
keep = []
for i in range(40):
    keep.append(copy.deepcopy(m))
print(len(keep))
