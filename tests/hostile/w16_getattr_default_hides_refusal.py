# expect: ForbiddenError
# a refused attribute is refused, not answered with getattr's default
import torch
m = torch.nn.Linear(2, 2)
hooks = getattr(m, "_forward_hooks", None)
print(hooks)
