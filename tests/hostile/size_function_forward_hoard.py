# expect: LimitError
# inside an autograd.Function forward the recorder is suspended: tensors made there never count toward total_elements
import torch
class Hoard(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        keep = []
        for i in range(30):
            keep.append(torch.ones(1000000) * i)
        ctx.keep = keep
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(1, requires_grad=True)
y = Hoard.apply(x)
print("30M elements held")
