# expect: LimitError
# deepcopy of a module inside a tensor hook (during backward the recorder is off, so the copy's parameters are not adopted, and a module result counts only its buffers): 12 copies of 4M parameters uncounted
import copy
import torch
from torch import nn
m = nn.Linear(2000, 2000)
keep = []
x = torch.ones(2, requires_grad=True)
def hook(g):
    for i in range(12):
        keep.append(copy.deepcopy(m))
    return g
x.register_hook(hook)
(x * 2).sum().backward()
print(len(keep))
