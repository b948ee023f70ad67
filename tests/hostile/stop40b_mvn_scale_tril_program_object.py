# expect: ForbiddenError|TypeError
# scale_tril a program object: torch reads its dim/shape/expand and keeps it as the distribution's Cholesky factor, unchecked
import torch
from torch.distributions import MultivariateNormal
class M:
    shape = (2, 2)
    def dim(self):
        return 2
    def expand(self, s):
        return self
d = MultivariateNormal(torch.zeros(2), scale_tril=M(), validate_args=False)
print(d.batch_shape, d.event_shape)
