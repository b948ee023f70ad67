# expect: ForbiddenError
import torch
x = torch.ones(2)
setattr(x, "__class__", torch.nn.Parameter)
