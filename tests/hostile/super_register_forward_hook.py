# expect: ForbiddenError
# super(M, m).share_memory: M defines the name, yet the real Module method (a file in
# /dev/shm per tensor) stays out of reach
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(3))
    def share_memory(self):
        return None
m = M()
super(M, m).share_memory()
print(m.w.is_shared())
