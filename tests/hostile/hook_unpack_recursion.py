# expect: LimitError|RuntimeError
# an unpack hook reads the saved tensor again, which calls the unpack hook again...
import torch
x = torch.ones(5, requires_grad=True)
def unpack(p):
    return y.grad_fn._saved_self
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
    y = x * x
y.sum().backward()
