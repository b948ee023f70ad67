# expect: ForbiddenError
# getattr held as a value is checked the same as called by name
import torch
fs = (getattr,)
print(fs[0](torch.sin, "__self__"))
