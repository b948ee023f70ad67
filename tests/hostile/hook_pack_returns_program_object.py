# expect: ForbiddenError
# a pack hook returns an object of the program's own class: torch's graph would hold it until backward
import torch
class Box:
    def __init__(self, t):
        self.t = t
x = torch.ones(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: Box(t), lambda b: b.t):
    y = x * x
y.sum().backward()
