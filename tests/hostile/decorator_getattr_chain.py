# expect: ForbiddenError
import torch


@torch.jit.ignore
def f():
    return 1

print(f())
