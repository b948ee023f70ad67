import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.retain_grad()
c = b.exp()
c.retain_grad()
d = c.sum()
d.retain_grad()
d.backward()
print(a.grad)
print(b.grad)
print(c.grad)
print(d.grad)
print(b.retains_grad, a.retains_grad, b.is_leaf, a.is_leaf)
