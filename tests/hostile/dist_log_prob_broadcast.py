# expect: LimitError
# log_prob broadcasts its value against the parameters.
import torch
from torch.distributions import Normal

d = Normal(torch.zeros(3000, 1), torch.ones(3000, 1))
x = d.log_prob(torch.zeros(1, 3000))
