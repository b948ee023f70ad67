# expect: ForbiddenError
# LowRankMultivariateNormal and the other families stay out
import torch
from torch.distributions import LowRankMultivariateNormal
print(LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)))
