"""torch.autograd.functional: jacobian (reverse, vectorized, forward-mode), hessian, vjp,
jvp, hvp and vhp of the program's functions; with create_graph=True the result joins an
ordinary graph and a later backward runs through it."""

import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def exp_reducer(x):
    return x.exp().sum(dim=1)


def pow_adder(x, y):
    return 2 * x + 3 * y**2


def cube_sum(x):
    return x.pow(3).sum()


x = torch.tensor([[0.1, 0.2], [0.3, -0.4]])
v2 = torch.ones(2)
v4 = torch.tensor([[1.0, 0.5], [0.0, -1.0]])

print(jacobian(exp_reducer, x))
print(jacobian(exp_reducer, x, vectorize=True))
print(jacobian(exp_reducer, x, vectorize=True, strategy="forward-mode"))
jx, jy = jacobian(pow_adder, (torch.ones(2), torch.tensor([1.0, 2.0])))
print(jx, jy)
print(hessian(cube_sum, x))
print(hessian(lambda a, b: (a * b).sum(), (torch.ones(2), torch.ones(2)))[0][1])
print(vjp(exp_reducer, x, v2))
print(jvp(exp_reducer, x, v4))
print(hvp(cube_sum, x, v4))
print(vhp(cube_sum, x, v4))

w = torch.tensor([0.5, -1.5], requires_grad=True)
jac = jacobian(lambda t: (t * w).tanh(), torch.tensor([1.0, 2.0]), create_graph=True)
jac.sum().backward()
print(jac, w.grad)
