# expect: LimitError
# jacrev builds an outputs x inputs Jacobian (and an outputs x outputs basis) after the function returns
import torch
from torch.func import jacrev
print(jacrev(lambda x: x * 2)(torch.ones(100000)).shape)
