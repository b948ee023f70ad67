# expect: ForbiddenError
# jacobian(vectorize=True) runs its backward under torch's older vmap: a hook kept a batched
# gradient past it (its shape leaves out the 1,000-row batch), and an op on it made 1,000
# times the elements the size checks saw (250,000 checked, 1 GB made; 4 GB at 1,000,000)
import torch
from torch.autograd.functional import jacobian

kept = []


def f(x):
    y = x * 2
    y.register_hook(lambda g: kept.append(g))
    return y


J = jacobian(f, torch.ones(1000), vectorize=True)
k = kept[0]
print(k.shape)
z = k * torch.ones(250, 1000)
print(z.shape, z.numel())
