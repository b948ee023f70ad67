# expect: ForbiddenError|KeyError
# write straight into a Module's private _forward_hooks dict through pd["__dict__"]
import torch
from torch import nn
class P(nn.ParameterDict):
    pass
seq = nn.Sequential(nn.Identity())
pd = nn.ParameterDict()
table = pd["__dict__"]
table["_forward_hooks"][1] = lambda mod, i, o: print("hook via private dict")
assert len(pd["_forward_hooks"]) == 0, "a hook was written into the private table"
raise KeyError("clean")
