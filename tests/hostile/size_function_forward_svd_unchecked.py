# expect: LimitError
# in a suspended Function.forward, a tuple result (svd) is neither recorded nor size-checked
import torch
class Big(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        U, S, V = torch.linalg.svd(torch.ones(3000, 1))
        ctx.u = U
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g
y = Big.apply(torch.ones(1, requires_grad=True))
print("svd ran in forward")
