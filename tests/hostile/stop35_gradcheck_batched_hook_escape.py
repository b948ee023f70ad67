# expect: ForbiddenError
# gradcheck(check_batched_grad=True) runs backward under torch's older vmap: a hook kept
# a batched gradient past it (its shape leaves out the batch), and ops on it allocate
# the batch times what the size checks see
import torch

kept = []


def f(x):
    y = x * 2
    y.register_hook(lambda g: kept.append(g))
    return y


x = torch.ones(50, dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(f, (x,), check_batched_grad=True)
k = [g for g in kept if g is not None][0]
print(k.shape)
z = k * torch.ones(1000, 50, dtype=torch.float64)
print(z.shape, z.numel())
