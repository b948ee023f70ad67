# expect: TypeError|ForbiddenError
# kl_divergence(p, q) memoises type(p), type(q) in torch's process-wide _KL_MEMOIZE
# before it says NotImplementedError: each program class (a real type) passed here stays
# in that dict for the worker's life. A loop leaves tens of thousands per job (about
# 64 MB kept after the job ends at 73k classes), and every later job adds more.
import torch
from torch.distributions import kl_divergence

n = 0
for i in range(2000):
    class K:
        pass
    try:
        kl_divergence(K(), 1.0)
    except NotImplementedError:
        n += 1
print(n)
kl_divergence(K(), K())
