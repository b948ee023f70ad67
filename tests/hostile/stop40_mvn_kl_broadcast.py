# expect: LimitError
# kl_divergence of two MultivariateNormals broadcast to a batch: torch solves k x k systems at the combined batch size
import torch
from torch.distributions import MultivariateNormal, kl_divergence
p = MultivariateNormal(torch.zeros(500, 1, 100), torch.eye(100))
q = MultivariateNormal(torch.zeros(1, 500, 100), torch.eye(100))
print(kl_divergence(p, q).shape)
