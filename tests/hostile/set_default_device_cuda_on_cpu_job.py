# expect: ForbiddenError
import torch
torch.set_default_device(torch.device("cuda", 0))
