# Fails on purpose: the graph was freed by the first backward.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.exp() * x).sum()
y.backward()
print(x.grad)
y.backward()
