# expect: ForbiddenError
import torch
t = torch


def f(torch):
    return torch.os

print(f(t))
