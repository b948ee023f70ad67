# expect: ForbiddenError
import torch
m = torch.nn.Linear(2, 2)
hooks = getattr(m, "_forward_hooks")
print(hooks)
