# expect: ForbiddenError
# a family outside the table (LowRankMultivariateNormal; MultivariateNormal is in it since stop 40)
import torch
from torch.distributions import LowRankMultivariateNormal
