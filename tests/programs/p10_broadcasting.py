import torch

a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
b = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
c = a + b
d = a * b - b / a
e = c * 2 + 1
f = torch.tensor(5.0, requires_grad=True)
g = d * f
print(c.shape, d.shape)
print(c)
loss = (e + g).sum()
loss.backward()
print(a.grad)
print(b.grad)
print(f.grad)
