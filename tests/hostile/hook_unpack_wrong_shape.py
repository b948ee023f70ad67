# expect: RuntimeError
# an unpack hook returns a tensor of the wrong shape: torch's own error, the recorder intact
import torch
x = torch.ones(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: torch.ones(3)):
    y = x * x
y.sum().backward()
