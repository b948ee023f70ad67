# expect: ForbiddenError
# The KL registry is process-wide: a program s function would run in later jobs.
import torch
import torch.distributions as D


@D.register_kl(D.Normal, D.Normal)
def kl(p, q):
    return 0
