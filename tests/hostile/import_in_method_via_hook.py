# expect: ForbiddenError
# a refused import in a function torch calls (a forward hook), not the program directly
import torch


def hook(module, inputs, output):
    import sys

    return sys.modules


m = torch.nn.Linear(2, 2)
m.register_forward_hook(hook)
m(torch.ones(1, 2))
