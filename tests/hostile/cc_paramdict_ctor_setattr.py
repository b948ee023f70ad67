# expect: ForbiddenError
# ParameterDict({...}) setattr()s each key: private names are set from a plain dict literal
import torch
pd = torch.nn.ParameterDict({"_private": 5, "__doc__": "x"})
print(pd["_private"], pd["__doc__"])
