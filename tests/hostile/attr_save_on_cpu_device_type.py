# expect: ForbiddenError
# save_on_cpu looks device_type up as an attribute of the torch module
import torch
x = torch.ones(3, requires_grad=True)
with torch.autograd.graph.save_on_cpu(device_type="load"):
    y = x * x
