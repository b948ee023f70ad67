# expect: ForbiddenError
import torch
x = torch.ones(1)
print("{0.__class__.__init__.__globals__}".format(x))
