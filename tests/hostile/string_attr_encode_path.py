# expect: ForbiddenError
import torch
p = torch.utils.data.__file__
print(p)
