# expect: ForbiddenError
import torch
from torch.distributions import Normal

print(Normal.__dict__)
