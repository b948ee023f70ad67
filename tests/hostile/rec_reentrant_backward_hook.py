# expect: LimitError|RuntimeError
import torch
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
x.register_hook(lambda g: y.backward(retain_graph=True))
y.backward(retain_graph=True)
