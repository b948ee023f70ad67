# expect: LimitError|ForbiddenError
# kl_divergence sizes the broadcast of batch + event shapes; with a -1 in one (from
# expand((-1, N))) torch.broadcast_shapes refuses, the check answers None, and torch's
# _kl_normal_normal makes (p.scale / q.scale) ** 2 at 40000 x 40000.
import torch
from torch.distributions import Normal, kl_divergence

p = Normal(torch.zeros(40000, 1), torch.ones(40000, 1)).expand((-1, 40000))
q = Normal(torch.zeros(1), torch.ones(1))
k = kl_divergence(p, q)
print(k.shape)
