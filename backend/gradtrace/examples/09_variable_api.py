# title: The old Variable API
# summary: Variable(t, requires_grad=True) is now just a tensor; .creator became .grad_fn.
# lesson: Before PyTorch 0.4, tensors that took part in autograd were wrapped in
#   Variable. The wrapper survives for old code but returns a plain tensor. The
#   function that made a tensor, once .creator, is .grad_fn; y, made by the program,
#   is no leaf, so y.grad stays None after backward.

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
z.backward()
print(x.grad)
print(y.grad)
