# expect: ForbiddenError
import torch
torch.add = torch.sub
print(torch.add(torch.ones(1), torch.ones(1)))
