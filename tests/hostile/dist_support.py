# expect: ForbiddenError
import torch
from torch.distributions import Uniform

print(Uniform(0.0, 1.0).support)
