# expect: ForbiddenError
import torch
x = torch.ones(2)
print(x.__class__)
