# expect: LimitError
# Normal(loc, scale) broadcasts the two.
import torch
from torch.distributions import Normal

d = Normal(torch.zeros(3000, 1), torch.ones(1, 3000))
