# expect: ForbiddenError
import torch
torch.set_default_device(torch.device("meta", 0))
print(torch.ones(2))
