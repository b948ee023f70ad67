# expect: ForbiddenError
import operator
import torch
print(operator.getitem(torch.ones(3), [0] * 1000000))
