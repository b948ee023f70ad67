# expect: ForbiddenError
import torch
x = torch.ones(2)
print(x.numpy().ctypes.data)
