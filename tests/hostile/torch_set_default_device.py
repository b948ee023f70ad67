# expect: ForbiddenError
import torch
torch.set_default_device('meta')
