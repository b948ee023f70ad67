# expect: ForbiddenError
import torch
pd = torch.nn.ParameterDict({"_private": 5})
