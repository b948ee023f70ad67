# expect: ForbiddenError
import torch
g = torch.Tensor.__init__.__globals__
print(g['sys'])
