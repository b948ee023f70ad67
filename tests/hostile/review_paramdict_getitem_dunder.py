# expect: ForbiddenError
import torch
pd = torch.nn.ParameterDict()
ga = pd["__getattribute__"]
print(ga("__dict__"))
