# expect: ForbiddenError
# torch.device as a context manager would move the default device set_default_device guards
import torch
with torch.device("meta"):
    x = torch.ones(3)
print(x)
