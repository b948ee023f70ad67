# Seed 002: the old Variable API. Variable(t, requires_grad=True) now returns a
# plain tensor; .creator became .grad_fn.
import torch
from torch.autograd import Variable

x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)
print(x.data)
print(x.grad)
print(x.grad_fn)
y = x + 2
print(y)
print(y.grad_fn)

x = Variable(torch.ones([1]), requires_grad=True)
y = 0.5 * (x + 1).pow(2)
z = torch.log(y)
loss = z
