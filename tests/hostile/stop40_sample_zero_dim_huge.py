# expect: LimitError
# sample((0, 10**9)) is sized 0 elements (right); a reduction over the zero dim then makes
# 10**9 (4 GB) unsized: the engine does not size sum(0) of a zero-element tensor.
import torch
from torch.distributions import Normal

d = Normal(torch.zeros(1), torch.ones(1))
x = d.sample((0, 10**9))
print(x.shape)
y = x.sum(0)
print(y.shape)
