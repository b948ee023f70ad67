# expect: ForbiddenError
import torch
x = torch.ones(3).to("meta")
