# expect: ForbiddenError
import torch


def f(x):
    return x * 2

g = torch.compile(f)
print(g(torch.ones(2)))
