# expect: LimitError|ForbiddenError
# After expand((-1, N)) the parameter shape holds -1: log_prob's broadcast check cannot
# compute a shape (torch.broadcast_shapes refuses -1, _broadcast_numel answers None) and
# lets torch make (value - loc) ** 2 at 40000 x 40000.
import torch
from torch.distributions import Normal

d = Normal(torch.zeros(40000, 1), torch.ones(40000, 1)).expand((-1, 40000))
y = d.log_prob(torch.zeros(1))
print(y.shape, y.numel())
