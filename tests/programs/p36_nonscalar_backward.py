# Fails on purpose: backward on a non-scalar needs an explicit gradient.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.backward(torch.tensor([1.0, 0.1]))
print(x.grad)
z = x ** 2
z.backward()
