# expect: ForbiddenError
# A shape is read once by the size check and again by torch: a program object that
# answers small the first time and large the second is refused, not iterated.
import torch
from torch.distributions import Normal


class Sneaky:
    def __init__(self):
        self.n = 0

    def __iter__(self):
        self.n += 1
        return iter([1] if self.n == 1 else [100000, 100000])


x = Normal(0.0, 1.0).sample(Sneaky())
