# expect: ForbiddenError
import torch
print(torch.sys.modules)
