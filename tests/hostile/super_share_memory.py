# expect: ForbiddenError
# super(M, m).share_memory(): parameters moved to shared memory (/dev/shm segments)
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(1000))
    def share_memory(self):
        return self
m = M()
super(M, m).share_memory()
print("shared")
