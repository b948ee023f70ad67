# expect: ForbiddenError
# get_submodule / get_parameter walk names with getattr: private submodule names are reachable
import torch
from torch import nn
m = nn.Module()
m.add_module("_inner", nn.Linear(1, 1))
print(m.get_submodule("_inner"), m.get_parameter("_inner.weight").shape)
