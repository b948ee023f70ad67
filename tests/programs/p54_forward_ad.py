"""torch.autograd.forward_ad: dual tensors in a dual_level, unpacked into primal and
tangent; a custom Function's jvp (its ctx attributes deleted after use); a Module whose
parameters are swapped for dual tensors with delattr/setattr, and functional_call."""

import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call

x = torch.tensor([0.5, -1.0, 2.0])
v = torch.tensor([1.0, 0.0, 0.5])


def f(t):
    return torch.sin(t) * t + t**2


with fwAD.dual_level() as level:
    print(level)
    dual = fwAD.make_dual(x, v)
    out = f(dual)
    primal, tangent = fwAD.unpack_dual(out)
    unpacked = fwAD.unpack_dual(out)
    print(primal)
    print(tangent)
    print(unpacked.tangent is tangent, unpacked.primal.shape)
    print(fwAD.unpack_dual(x).tangent)

print(fwAD.unpack_dual(out).tangent)  # the level ended: no tangent any more

# the same directional derivative by reverse mode
xr = x.clone().requires_grad_()
f(xr).backward(v)
print(torch.allclose(xr.grad, tangent), xr.grad)


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        result = torch.exp(inp)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, grad_in):
        grad_out = grad_in * ctx.result
        del ctx.result
        return grad_out


with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
    e = Exp.apply(d)
    print(fwAD.unpack_dual(e).tangent)

torch.manual_seed(0)
model = nn.Linear(3, 2)
inp = torch.ones(4, 3)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.ones_like(p) for name, p in params.items()}

with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    jvp1 = fwAD.unpack_dual(model(inp)).tangent
print(jvp1)
print(len(list(model.parameters())))

model2 = nn.Linear(3, 2)
with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    jvp2 = fwAD.unpack_dual(functional_call(model2, dual_params, inp)).tangent
print(torch.allclose(jvp1, jvp2))


class Holder:
    def __init__(self):
        self.kept = 1
        self.dropped = 2


h = Holder()
del h.dropped
print(hasattr(h, "dropped"), h.kept)
loss = functional_call(model2, params, (inp,)).pow(2).sum()
loss.backward()
print(params["weight"].grad)
