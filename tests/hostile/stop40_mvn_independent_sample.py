# expect: LimitError
# an Independent over an expanded MultivariateNormal, sampled: the inner matrix counts per element
import torch
from torch.distributions import MultivariateNormal, Independent
d = Independent(MultivariateNormal(torch.zeros(40, 200), torch.eye(200)), 1)
print(d.sample((10,)).shape)
