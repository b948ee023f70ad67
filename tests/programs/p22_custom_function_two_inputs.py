import torch


class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c):
        ctx.save_for_backward(a, b)
        return a * b + c

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        ga = gb = gc = None
        if ctx.needs_input_grad[0]:
            ga = grad * b
        if ctx.needs_input_grad[1]:
            gb = grad * a
        if ctx.needs_input_grad[2]:
            gc = grad
        return ga, gb, gc


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
c = torch.tensor([0.5, 0.5], requires_grad=True)
out = MulAdd.apply(a, b, c)
loss = (out ** 2).sum()
loss.backward()
print(out, loss)
print(a.grad, b.grad, c.grad)
