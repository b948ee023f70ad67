import torch
from torch.autograd import Variable

x = Variable(torch.tensor([1.0, 2.0, 3.0]), requires_grad=True)
y = Variable(torch.ones(3))
z = (x * y + x ** 2).sum()
z.backward()
print(x.grad, y.grad, y.requires_grad)
print(x.data, z.data, z.item())
