# expect: ForbiddenError
import torch
x = torch.ones(2)
x._secret = 1
