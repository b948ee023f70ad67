# expect: ForbiddenError|RuntimeError
# torch.zeros_like(x, device=torch.device("meta")): a device object instead of a string
import torch
y = torch.zeros_like(torch.ones(3), device=torch.device("meta"))
print(y.shape)
