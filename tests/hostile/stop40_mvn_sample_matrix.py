# expect: LimitError
# a 1,000-dim MultivariateNormal drawn 100 times: torch broadcasts its 1000 x 1000 scale matrix against each sample (10^8 elements)
import torch
from torch.distributions import MultivariateNormal
d = MultivariateNormal(torch.zeros(1000), torch.eye(1000))
print(d.rsample((100,)).shape)
