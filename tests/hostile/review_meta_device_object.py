# expect: ForbiddenError
import torch
d = torch.device("meta")
x = torch.zeros(3, device=d)
