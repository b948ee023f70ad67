# expect: LimitError|ForbiddenError
# expand() with -1 keeps a dim: check_method sizes expand((-1, N)) as -1 * N (negative,
# under the limit) while torch keeps loc's 40000 rows; batch_shape then holds -1, so
# sample()'s check reads a negative count too, and torch.normal makes 40000 x 40000
# (1.6e9 elements, 6.4 GB) before any check sees it.
import torch
from torch.distributions import Normal

d = Normal(torch.zeros(40000, 1), torch.ones(40000, 1))
e = d.expand((-1, 40000))
print(e.batch_shape)
x = e.sample()
print(x.shape, x.numel())
