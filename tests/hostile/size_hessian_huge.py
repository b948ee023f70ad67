# expect: LimitError
# a Hessian of 10^5 inputs has 10^10 elements
import torch
from torch.func import hessian
print(hessian(lambda t: t.pow(3).sum())(torch.ones(100000)).shape)
