# expect: LimitError|ForbiddenError
# Uniform(...).expand((-1, N)) passes expand's check (-N elements); .mean is a property
# read, (high + low) / 2 of two expanded views: 9M elements made, and a property read is
# not checked at all afterwards (the program runs on with it).
import torch
from torch.distributions import Uniform

d = Uniform(torch.zeros(3000, 1), torch.ones(3000, 1)).expand((-1, 3000))
m = d.mean
print(m.shape, m.numel())
