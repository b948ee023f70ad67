# expect: ForbiddenError
import torch
from torch.distributions import Normal


class MyNormal(Normal):
    pass
