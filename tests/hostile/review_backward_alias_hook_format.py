# expect: ForbiddenError
import torch
x = torch.ones(2, requires_grad=True)
y = (x * 3).sum()
x.register_hook(lambda g: "{0.__class__}".format(g))
b = y.backward
b()
