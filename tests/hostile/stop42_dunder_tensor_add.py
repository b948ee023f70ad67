# expect: ForbiddenError
# A tensor's special methods are torch's: `x + y` is how a program reaches them.
import torch
x = torch.ones(2)
print(x.__add__)
