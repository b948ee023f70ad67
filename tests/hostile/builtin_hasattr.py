# expect: ForbiddenError
import torch
print(1)
r = hasattr(torch.ones(1), "_cdata")
print(r)
