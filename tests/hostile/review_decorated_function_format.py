# expect: ForbiddenError
import torch


@torch.no_grad()
def f():
    return 1


print("{0.__wrapped__}".format(f))
