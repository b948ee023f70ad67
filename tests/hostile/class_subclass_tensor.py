# expect: ForbiddenError
import torch


class T(torch.Tensor):
    pass

print(T())
