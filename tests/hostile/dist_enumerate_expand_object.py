# expect: ForbiddenError
# expand= is tested by the size check and again by torch: only True or False.
import torch
from torch.distributions import Bernoulli


class Flip:
    def __init__(self):
        self.n = 0

    def __bool__(self):
        self.n += 1
        return self.n > 1


d = Bernoulli(probs=torch.full((3_000_000,), 0.5))
x = d.enumerate_support(Flip())
