# expect: ForbiddenError
# a pack hook's body is checked like any program code
import torch
x = torch.ones(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: eval("t"), lambda t: t):
    y = x * x
