# expect: ForbiddenError|RuntimeError
# Module.to("meta") moves the parameters of a global Module to meta; variables() serialises them
import torch
m = torch.nn.Linear(2, 2).to("meta")
print(m)
