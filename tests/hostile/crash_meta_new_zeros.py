# expect: ForbiddenError|RuntimeError
# x.new_zeros(..., device="meta"): the factory method route to meta
import torch
y = torch.ones(1).new_zeros(3, device="meta")
print(y.shape)
