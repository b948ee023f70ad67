# expect: ForbiddenError
# A special method is read only where the program wrote it: a Module's __call__ is
# torch's (a program calls the module itself).
import torch
from torch import nn
class M(nn.Module):
    def forward(self, x):
        return x
m = M()
print(m.__call__)
