# expect: LimitError
# The method taken as a value is checked as the call: the same size rule.
import torch
from torch.distributions import Bernoulli

draw = Bernoulli(probs=torch.full((2000,), 0.5)).sample
x = draw([3000])
