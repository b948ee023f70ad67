import torch

x = torch.tensor([2.0, 3.0], requires_grad=True)
y = x ** 2
z = y.sum() * 3
z.backward(retain_graph=True)
print(x.grad)
z.backward(retain_graph=True)
print(x.grad)
x.grad.data.zero_()
y.sum().backward(retain_graph=True)
print(x.grad)
w = y.mean()
w.backward()
print(x.grad)
