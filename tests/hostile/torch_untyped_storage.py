# expect: ForbiddenError
import torch
x = torch.ones(2)
print(x.untyped_storage().data_ptr())
