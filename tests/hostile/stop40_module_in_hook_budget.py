# expect: LimitError
# layers built inside a backward hook, where nothing is recorded: their parameters count toward the budget all the same
import torch
import torch.nn as nn
keep = []
def hook(g):
    for i in range(8):
        keep.append(nn.Linear(2000, 2000))
    return g
x = torch.ones(2, requires_grad=True)
y = x * 2
y.register_hook(hook)
y.sum().backward()
print(len(keep))
