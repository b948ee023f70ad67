# expect: LimitError
import torch
x = torch.ones(2, requires_grad=True)
x.register_hook(lambda g: [0 for i in range(10**9)])
(x * 2).sum().backward()
