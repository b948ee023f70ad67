# expect: ForbiddenError
import torch


class Evil(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return open('sentinel.txt', 'w')


x = torch.ones(2, requires_grad=True)
Evil.apply(x).sum().backward()
