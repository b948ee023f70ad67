# expect: ForbiddenError
import torch
from torch.distributions import MultivariateNormal
