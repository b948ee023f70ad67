# expect: ForbiddenError
# a builtin handed over as a hook is called through the same checks (open is not there at all)
import torch
x = torch.ones(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(open, print):
    y = x * x
