# expect: LimitError
# a custom Function's backward runs with the recorder off: the 30M elements it keeps count toward total_elements while alive
import torch
keep = []
class Hoard(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        for i in range(30):
            keep.append(torch.zeros(1000000) + i)
        return g * 2
x = torch.ones(1, requires_grad=True)
Hoard.apply(x).sum().backward()
print(len(keep))
