# expect: ForbiddenError
import torch
x = torch.ones(2).new_zeros(3, device="meta")
