# expect: ForbiddenError|KeyError
# pd["__setattr__"]("__class__", M): an instance's class swapped under the interpreter's feet
import torch
from torch import nn
class M(nn.Module):
    def forward(self, x):
        return x * 7
pd = torch.nn.ParameterDict()
pd["__setattr__"]("__class__", M)
out = pd(torch.ones(1))
assert float(out) != 7.0, "the class was swapped"
raise KeyError("clean")
