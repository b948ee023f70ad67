# expect: ForbiddenError
# a pack hook hides a Module (and so its parameters) in torch's graph
import torch
x = torch.ones(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: [torch.nn.Linear(3, 3), t], lambda p: p[1]):
    y = x.exp()
y.sum().backward()
