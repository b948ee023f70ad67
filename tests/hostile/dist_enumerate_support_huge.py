# expect: LimitError
# enumerate_support() gives a value per support point for each batch element: sized as
# that many (torch expands a view of them, which later operations make whole).
import torch
from torch.distributions import Bernoulli

d = Bernoulli(probs=torch.full((3_000_000,), 0.5))
x = d.enumerate_support()
