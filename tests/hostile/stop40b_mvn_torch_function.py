# expect: ForbiddenError
# a matrix-like class with __torch_function__ handed to MultivariateNormal
import torch
from torch.distributions import MultivariateNormal
class T:
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func
d = MultivariateNormal(torch.zeros(2), scale_tril=T())
print(d.rsample())
