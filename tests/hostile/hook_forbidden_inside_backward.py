# expect: ForbiddenError
import torch
x = torch.ones(2, requires_grad=True)
x.register_hook(lambda g: eval('g * 2'))
(x * 3).sum().backward()
