# expect: LimitError
# sample(shape) makes shape x batch x event elements: sized before torch draws them.
import torch
from torch.distributions import Normal

d = Normal(torch.zeros(1), torch.ones(1))
x = d.sample((5000, 1000))
