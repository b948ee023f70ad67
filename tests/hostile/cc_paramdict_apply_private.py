# expect: ForbiddenError
# pd["_apply"] calls a function on every tensor of the module, private API
import torch
pd = torch.nn.ParameterDict({"w": torch.nn.Parameter(torch.ones(2))})
pd["_apply"](lambda t: t * 100)
print(pd["w"])
