# expect: ForbiddenError
import torch
x = torch.ones(2, requires_grad=True)
x.register_hook("{0.__globals__}".format)
(x * 2).sum().backward()
