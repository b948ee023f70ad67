# expect: ForbiddenError
# jacobian(strategy="forward-mode") calls the program's function under torch's older vmap:
# the tangent it unpacked stays batched once that ends (1,000 rows its shape leaves out),
# and an op on it made 1,000 times the elements the size checks saw (1 GB for 250,000)
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd.functional import jacobian

kept = []


def f(x):
    kept.append(fwAD.unpack_dual(x).tangent)
    return x * 2


J = jacobian(f, torch.ones(1000), vectorize=True, strategy="forward-mode")
k = kept[0]
print(k.shape)
z = k * torch.ones(250, 1000)
print(z.shape, z.numel())
