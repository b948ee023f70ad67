# expect: ForbiddenError|AttributeError
# the private Cholesky factor torch keeps: not on the allowlist
import torch
from torch.distributions import MultivariateNormal
d = MultivariateNormal(torch.zeros(2), torch.eye(2))
print(d._unbroadcasted_scale_tril)
