# expect: LimitError
# a custom Function's backward calls .backward (through an alias) again, 70 levels: the engine's reentrant pool thread outlives the job
import torch
x = torch.ones(1, requires_grad=True)
depth = [0]
class Again(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 1
    @staticmethod
    def backward(ctx, g):
        depth[0] += 1
        if depth[0] < 70:
            with torch.enable_grad():
                go = Again.apply(x).sum().backward
                go()
        return g
Again.apply(x).sum().backward()
print(depth)
