# expect: ForbiddenError
import torch


@torch.jit.script
def f(x):
    return x + 1

print(f(torch.ones(1)))
