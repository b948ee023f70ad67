# expect: ForbiddenError
# x.__class__ is what type(x) answers (torch.Tensor); what lies behind it stays closed
import torch
x = torch.ones(2)
print(x.__class__.__subclasses__())
