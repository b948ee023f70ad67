# title: requires_grad and no_grad
# summary: Which tensors autograd follows, and how to make it look away.
# lesson: A result requires a gradient when any of its inputs does. Inside
#   torch.no_grad() nothing is recorded, so results have no grad_fn; detach() gives a
#   tensor cut from the graph; requires_grad_() turns gradient tracking on for a leaf
#   you already have.

import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
c = a * b
print(c.requires_grad, c.grad_fn)

with torch.no_grad():
    d = a * 2
print(d.requires_grad, d.grad_fn)

e = c.detach()
print(e.requires_grad, e.is_leaf)

b.requires_grad_()
f = (a * b).sum()
f.backward()
print(a.grad, b.grad)
