# expect: ForbiddenError
import torch
torch.backends.cudnn.enabled = False
