# PPO's continuous-action policy (nikhilbarhate99/PPO-PyTorch's ActorCritic.act and
# evaluate): an actor gives each state's action mean, MultivariateNormal(mean, cov) with a
# diagonal covariance draws actions and scores them, and the clipped surrogate loss trains
# the actor through log_prob and entropy. Also a Gaussian process's marginal likelihood
# (MultivariateNormal(0, K).log_prob(y)), scale_tril and precision_matrix forms, rsample,
# expand, Independent over a batch, and kl_divergence against its closed form.
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal, Independent, kl_divergence

torch.manual_seed(0)
state_dim, action_dim = 4, 2
actor = nn.Sequential(nn.Linear(state_dim, 16), nn.Tanh(), nn.Linear(16, action_dim), nn.Tanh())
action_var = torch.full((action_dim,), 0.6 * 0.6)
opt = torch.optim.Adam(actor.parameters(), lr=0.01)

states = torch.randn(5, state_dim)
with torch.no_grad():
    mean = actor(states)
    dist = MultivariateNormal(mean, torch.diag(action_var).unsqueeze(dim=0))
    actions = dist.sample()
    old_logprobs = dist.log_prob(actions)
print(dist.batch_shape, dist.event_shape, actions.shape, old_logprobs.shape)
advantages = torch.randn(5)
for epoch in range(3):
    mean = actor(states)
    cov = torch.diag_embed(action_var.expand_as(mean))
    dist = MultivariateNormal(mean, cov)
    logprobs = dist.log_prob(actions)
    entropy = dist.entropy()
    ratios = torch.exp(logprobs - old_logprobs)
    surr1 = ratios * advantages
    surr2 = torch.clamp(ratios, 0.8, 1.2) * advantages
    loss = -torch.min(surr1, surr2).mean() - 0.01 * entropy.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 5))

x = torch.linspace(0, 1, 6)
lengthscale = torch.tensor(0.3, requires_grad=True)
K = torch.exp(-0.5 * (x[:, None] - x[None, :]) ** 2 / lengthscale ** 2) + 1e-3 * torch.eye(6)
y = torch.sin(6 * x)
nll = -MultivariateNormal(torch.zeros(6), covariance_matrix=K).log_prob(y)
nll.backward()
print(round(nll.item(), 4), round(lengthscale.grad.item(), 4))

L = torch.tensor([[1.0, 0.0], [0.5, 2.0]], requires_grad=True)
mu = torch.tensor([0.5, -1.0], requires_grad=True)
q = MultivariateNormal(mu, scale_tril=L)
z = q.rsample((3,))
print(z.shape, q.covariance_matrix, q.precision_matrix.shape, q.variance, q.stddev, q.mean)
p = MultivariateNormal(torch.zeros(2), precision_matrix=torch.eye(2) * 2)
kl = kl_divergence(q, p)
closed = 0.5 * (torch.trace(2 * q.covariance_matrix) + (mu @ (2 * torch.eye(2)) @ mu) - 2
                - torch.logdet(q.covariance_matrix) + torch.logdet(torch.eye(2) / 2))
print(round(kl.item(), 5), round(closed.item(), 5))
(kl + z.sum()).backward()
print(L.grad, mu.grad)
wide = q.expand((4,))
print(wide.batch_shape, wide.sample().shape, Independent(wide, 1).log_prob(torch.zeros(4, 2)).shape)
print(p.entropy(), p.scale_tril, p.mode)
