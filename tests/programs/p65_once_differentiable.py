"""A custom Function whose backward is @once_differentiable, as the extending-autograd
notes write it: one backward works; asking for a second order fails as torch says."""

import torch
from torch.autograd.function import once_differentiable


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = Square.apply(x).sum()
y.backward()
print(x.grad)
z = torch.tensor([1.5], requires_grad=True)
(g,) = torch.autograd.grad(Square.apply(z).sum(), z, create_graph=True)
print(g)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
