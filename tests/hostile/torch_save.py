# expect: ForbiddenError
import torch
torch.save(torch.ones(2), 'pwned.pt')
