# expect: ForbiddenError|TypeError
# validate_args a program object: torch keeps it and tests its truth (the program's __len__) in every later method; only True, False or None belong there
import torch
from torch.distributions import MultivariateNormal
class V:
    def __len__(self):
        return 1
d = MultivariateNormal(torch.zeros(2), torch.eye(2), validate_args=V())
print(d.sample().shape, d.log_prob(torch.zeros(2)))
