# expect: ForbiddenError
import torch


class A:
    def __add__(self, other):
        return other.__class__._make_subclass


print(A() + torch.ones(1))
