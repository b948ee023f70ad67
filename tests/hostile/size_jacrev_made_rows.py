# expect: LimitError
# a small Jacobian whose function makes a big intermediate: jacrev's vmapped backward runs over it once per output
import torch
from torch.func import jacrev
def f(t):
    return torch.outer(t, t).sum(0)
print(jacrev(f)(torch.ones(2000)).shape)
