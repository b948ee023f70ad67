# expect: LimitError
# kl_divergence broadcasts the two distributions parameters.
import torch
from torch.distributions import Normal, kl_divergence

p = Normal(torch.zeros(3000, 1), 1.0)
q = Normal(torch.zeros(1, 3000), 1.0)
x = kl_divergence(p, q)
