# expect: ForbiddenError|TypeError
# loc a program object: torch reads its dim/shape/expand; shape says (2,) so the size rule sees no batch, while expand hands torch a (1000000, 1, 2) tensor that sample((4000,)) broadcasts to 8e9 elements
import torch
from torch.distributions import MultivariateNormal
class Loc:
    shape = (2,)
    def dim(self):
        return 1
    def expand(self, s):
        return torch.zeros(1000000, 1, 2)
d = MultivariateNormal(Loc(), torch.eye(2))
print(d.sample((4000,)).shape)
