# expect: LimitError
# pack hooks keep copies of every saved tensor in torch's graph: they count toward total_elements
import torch
x = torch.ones(1000, 1000, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: [t.clone() for i in range(30)], lambda p: p[0]):
    y = x * x
y.sum().backward()
