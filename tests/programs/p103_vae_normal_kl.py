# A VAE's latent step with torch.distributions: the encoder gives mu and log-variance,
# Normal(mu, std).rsample() is the reparameterisation trick (gradients flow to mu and
# std), and the KL term against the prior N(0, 1) is kl_divergence (checked against the
# closed form). Also Bernoulli's likelihood of binary data, Independent over the event
# dims, Uniform, and each family's mean, stddev, variance, cdf and icdf.
import torch
import torch.nn as nn
from torch.distributions import Bernoulli, Independent, Normal, Uniform, kl_divergence

torch.manual_seed(0)
x = (torch.rand(6, 8) > 0.5).float()
enc = nn.Linear(8, 4)
dec = nn.Linear(2, 8)

h = enc(x)
mu, logvar = h[:, :2], h[:, 2:]
std = torch.exp(0.5 * logvar)
q = Normal(mu, std)
z = q.rsample()
prior = Normal(torch.zeros_like(mu), torch.ones_like(std))
kl = kl_divergence(q, prior).sum(1)
closed = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1)
print(torch.allclose(kl, closed, atol=1e-6))

likelihood = Independent(Bernoulli(logits=dec(z)), 1)
recon = -likelihood.log_prob(x)
loss = (recon + kl).mean()
loss.backward()
print(round(loss.item(), 5), enc.weight.grad.norm().item(), dec.bias.grad)
print(likelihood.batch_shape, likelihood.event_shape, likelihood.base_dist.probs.shape)

n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n.mean, n.stddev, n.variance, n.cdf(torch.tensor([0.0, 1.0])), n.icdf(torch.tensor(0.975)))
print(n.entropy(), n.log_prob(torch.tensor([[0.5], [1.5]])))
u = Uniform(-1.0, torch.tensor([1.0, 3.0]))
print(u.sample((3,)), u.mean, u.entropy(), u.low, u.high)
print(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)))
print(kl_divergence(Bernoulli(0.3), Bernoulli(torch.tensor([0.5, 0.1]))))
print(n, u, Bernoulli(logits=torch.zeros(2)))
