# expect: LimitError
# expand(batch_shape) makes the parameters that large for what follows.
import torch
from torch.distributions import Normal

d = Normal(0.0, 1.0).expand((100000, 100))
