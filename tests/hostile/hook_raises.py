# expect: ZeroDivisionError
import torch
x = torch.ones(2, requires_grad=True)
x.register_hook(lambda g: 1 / 0)
(x * 3).sum().backward()
