# expect: LimitError|ForbiddenError
# Normal.variance is scale.pow(2): after expand((-1, N)) scale is a 3000 x 3000 view, and
# the property read makes it whole, unchecked.
import torch
from torch.distributions import Normal

d = Normal(torch.zeros(3000, 1), torch.ones(3000, 1)).expand((-1, 3000))
v = d.variance
print(v.shape, v.numel())
