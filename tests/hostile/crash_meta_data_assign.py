# expect: ForbiddenError|RuntimeError
# x.data = a meta tensor: the leaf keeps its name but has no storage when serialised
import torch
x = torch.ones(3)
x.data = torch.empty(3, device="meta")
print(x.shape)
