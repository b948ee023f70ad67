# expect: ForbiddenError
# ModuleDict keys can be private names ("_modules"? "_x"): reached by subscript where attribute syntax is refused
import torch
from torch import nn
md = nn.ModuleDict({"_hidden": nn.Linear(1, 1)})
print(md["_hidden"].weight.shape)
pd = nn.ParameterDict({"_secret": nn.Parameter(torch.ones(1))})
print(pd["_secret"])
