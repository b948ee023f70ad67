import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g)
g2 = torch.autograd.grad(g.sum(), x)[0]
print(g2)
print(x.grad)
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
f = a * b + a ** 2
da, db = torch.autograd.grad(f, [a, b])
print(da, db)
v = torch.tensor([1.0, 0.5, 0.25])
h = x * 2
(vjp,) = torch.autograd.grad(h, x, grad_outputs=v)
print(vjp)
