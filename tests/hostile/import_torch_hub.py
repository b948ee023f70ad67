# expect: ForbiddenError
import torch
import torch.hub
print('imported')
