# expect: NotImplementedError|TypeError|ForbiddenError
# kl of a MultivariateNormal against a Normal: no such pair registered (and none may be)
import torch
from torch.distributions import MultivariateNormal, Normal, kl_divergence
p = MultivariateNormal(torch.zeros(2), torch.eye(2))
print(kl_divergence(p, Normal(torch.zeros(2), torch.ones(2))))
