# expect: ForbiddenError
# pd["__dir__"]() lists every attribute name of the module, private ones included
import torch
pd = torch.nn.ParameterDict()
print(len(pd["__dir__"]()))
