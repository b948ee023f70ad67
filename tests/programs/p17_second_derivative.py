import torch

x = torch.tensor(1.5, requires_grad=True)
y = torch.sin(x) * x ** 2
dy = torch.autograd.grad(y, x, create_graph=True)[0]
d2y = torch.autograd.grad(dy, x, create_graph=True)[0]
d2y.backward()
print(f"y={y.item():.5f} dy={dy.item():.5f} d2y={d2y.item():.5f}")
print(x.grad)
print(dy.requires_grad, dy.grad_fn is not None)
