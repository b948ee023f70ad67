# expect: ForbiddenError|LookupError
# a Function's forward and backward bound by name to plain methods of its body
# (`forward = fwd`): torch calls them with its ctx; they are the program's steps only as
# `def forward`/`def backward` (run as a step, off the recording), or refused
import torch


class F(torch.autograd.Function):
    def fwd(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    def bwd(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2

    forward = fwd
    backward = bwd


x = torch.ones(3, requires_grad=True)
y = F.apply(x).sum()
y.backward()
print(x.grad)
assert x.grad.tolist() == [2.0, 2.0, 2.0]
raise LookupError("done")
