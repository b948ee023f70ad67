# expect: ForbiddenError
import torch
from torch.autograd.function import once_differentiable


class F(torch.autograd.Function):
    @staticmethod
    @once_differentiable
    def forward(ctx, x):
        return x * 2
