# expect: ForbiddenError
import torch
x = torch.ones(1)
print("{0.grad_fn.__class__}".format(x))
