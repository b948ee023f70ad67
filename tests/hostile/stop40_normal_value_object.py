# expect: LimitError|TypeError
# Normal.log_prob(value) with a program object: torch computes value - loc (the
# program's __sub__ answers an (N, 1) tensor), then divides by 2 * var of shape (N,):
# N x N made, unsized (the check looks only at a Tensor value).
import torch
from torch.distributions import Normal


class V:
    def __sub__(self, other):
        return torch.zeros(40000, 1)


d = Normal(torch.zeros(40000), torch.ones(40000), validate_args=False)
y = d.log_prob(V())
print(y.shape, y.numel())
