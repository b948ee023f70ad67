# expect: ForbiddenError
import torch
x = torch.ones(2, requires_grad=True)
delattr(x, "grad_fn")
