# expect: ForbiddenError
import torch
f = torch.zeros
print(f.__wrapped__)
