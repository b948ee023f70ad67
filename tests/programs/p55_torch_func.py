"""torch.func: grad, grad_and_value (with aux), vmap (in_dims, out_dims, nested), vjp and
its vjp_fn under vmap, jvp, jacrev, jacfwd, hessian, and per-sample gradients of a
Module with functional_call; the results used by ordinary autograd afterwards."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp, vmap

torch.manual_seed(0)


def f(x):
    return (x.sin() * x).sum()


x = torch.tensor([0.5, -1.0, 2.0])
print(grad(f)(x))
print(grad(grad(lambda t: t**3))(torch.tensor(2.0)))


def with_aux(w, b):
    y = (w * 2 + b).tanh()
    return y.sum(), y


(gw, gb), (value, aux) = grad_and_value(with_aux, argnums=(0, 1), has_aux=True)(x, x * 0.5)
print(gw, gb, value, aux)

batch = torch.arange(12.0).reshape(4, 3) / 10
print(vmap(f)(batch))
print(torch.vmap(f, in_dims=0)(batch).shape)
print(vmap(torch.dot)(batch, batch))
print(vmap(lambda a, s: a * s, in_dims=(0, None))(batch, 3.0))
print(vmap(lambda r: r.sum(0), in_dims=1, out_dims=0)(batch))
print(vmap(vmap(lambda e: e * e))(batch))

out, vjp_fn = vjp(torch.sin, x)
print(out, vjp_fn(torch.ones(3)))
print(vmap(vjp_fn)(torch.eye(3)))

primal_out, tangent_out = jvp(f, (x,), (torch.ones(3),))
print(primal_out, tangent_out)

W = torch.randn(4, 3)


def layer(w, v):
    return torch.tanh(w @ v)


print(jacrev(layer, argnums=1)(W, x))
print(torch.allclose(jacrev(layer, argnums=1)(W, x), jacfwd(layer, argnums=1)(W, x)))
print(jacrev(layer, argnums=(0, 1))(W, x)[0].shape)
print(hessian(f)(x))
print(vmap(jacrev(f))(batch))

model = nn.Linear(3, 2)
params = {k: v.detach() for k, v in model.named_parameters()}
targets = torch.tensor([0, 1, 1, 0])


def loss_one(p, sample, target):
    logits = functional_call(model, p, (sample.unsqueeze(0),))
    return F.cross_entropy(logits, target.unsqueeze(0))


per_sample = vmap(grad(loss_one), in_dims=(None, 0, 0))(params, batch, targets)
print(per_sample["weight"].shape, per_sample["bias"])
print(torch.allclose(per_sample["bias"].mean(0), grad(lambda p: F.cross_entropy(functional_call(model, p, (batch,)), targets))(params)["bias"]))

# a transform's result inside an ordinary autograd graph
xs = torch.tensor([0.3, 0.7], requires_grad=True)
g = grad(lambda t: (t**3).sum())(xs)
g.sum().backward()
print(g, xs.grad)
