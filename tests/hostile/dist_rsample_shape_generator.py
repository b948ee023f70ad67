# expect: ForbiddenError
# A generator as the shape would be emptied by the check before torch read it.
import torch
from torch.distributions import Normal

x = Normal(torch.zeros(3), 1.0).rsample(n for n in [100000, 100000])
