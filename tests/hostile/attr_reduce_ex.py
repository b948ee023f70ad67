# expect: ForbiddenError
import torch
x = torch.ones(2)
print(torch.Tensor.__reduce_ex__(x, 2))
