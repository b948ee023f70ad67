# expect: ForbiddenError
import torch
d = torch.get_default_device()
k = d.__class__
print(k)
