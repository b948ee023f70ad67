# expect: ForbiddenError
import torch
x = torch.empty_like(torch.ones(2), device="meta")
