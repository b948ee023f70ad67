# title: The reparameterization trick
# summary: Why a VAE samples with rsample(): the gradient reaches the distribution's parameters.
# lesson: Normal(mu, sigma).rsample() draws noise eps from N(0, 1) and returns
#   mu + eps * sigma, so the sample is an ordinary function of mu and sigma and backward
#   reaches both. sample() draws under no_grad: its result is a leaf with no grad_fn, and
#   nothing flows back through it. The noise is the only random part, and it needs no
#   gradient.

import torch
from torch.distributions import Normal

torch.manual_seed(0)
mu = torch.tensor(0.5, requires_grad=True)
log_sigma = torch.tensor(0.0, requires_grad=True)
q = Normal(mu, log_sigma.exp())

z = q.rsample()
loss = (z - 2.0) ** 2
loss.backward()
print(z, mu.grad, log_sigma.grad)

drawn = q.sample()
print(drawn.requires_grad, drawn.grad_fn)
