# expect: ForbiddenError
# expand(..., _instance=obj) would have torch set the parameters on any object.
import torch
from torch.distributions import Normal


class Box:
    pass


d = Normal(torch.zeros(2), 1.0).expand((2,), _instance=Box())
