# expect: LimitError|TypeError
# log_prob's check sizes only a Tensor value; Categorical.log_prob calls value.long() on
# any object (validate_args=False), so the program's object answers a (N, 1) index that
# torch broadcasts against (N, K) logits: gather makes N x N.
import torch
from torch.distributions import Categorical


class V:
    def long(self):
        return torch.zeros(40000, 1, dtype=torch.long)


c = Categorical(logits=torch.zeros(40000, 2), validate_args=False)
y = c.log_prob(V())
print(y.shape, y.numel())
