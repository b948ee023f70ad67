# expect: ForbiddenError
# super(M, m).compile() when M defines compile: nn.Module.compile -> torch.compile
import torch
from torch import nn
class M(nn.Module):
    def compile(self):
        return None
    def forward(self, x):
        return x * 2
m = M()
super(M, m).compile()
print(m(torch.ones(2)))
