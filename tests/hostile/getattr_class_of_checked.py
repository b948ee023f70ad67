# expect: ForbiddenError
import torch
f = torch.sin
k = getattr(f, "__class__")
print(k)
