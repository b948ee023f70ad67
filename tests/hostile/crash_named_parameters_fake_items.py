# expect: ForbiddenError|TypeError
# m.named_parameters = a lambda yielding non-tensors: rec.node_of(5) after the run
import torch
m = torch.nn.Linear(1, 1)
m.named_parameters = lambda: [("w", 5)]
print("set")
