# Seed 003 (shared/programs/seeds/11): a Function of one's own supplies the derivative of
# a function that cuts the graph; `loss` is the model's loss on the first batch.
import torch


def f(x, w):
    return 2 * x * w[0] + x**2 * w[1]


def f_cut(x, w):
    with torch.no_grad():
        return f(x, w)


class GeneralFunctionWithForwardDifference(torch.autograd.Function):
    @staticmethod
    def forward(ctx, f, xs, weight):
        ys = f(xs, weight)
        ctx.save_for_backward(xs, ys, weight)
        ctx.f = f
        return ys

    @staticmethod
    def backward(ctx, grad_output):
        xs, ys, weight = ctx.saved_tensors
        f = ctx.f
        dw = 0.001
        diff = []
        weight = weight.detach()
        for i in range(len(weight)):
            weight[i] += dw
            diff.append(torch.sum(grad_output * (f(xs, weight) - ys)))
            weight[i] -= dw
        diff = torch.tensor(diff) / dw
        return None, None, diff


torch.manual_seed(0)
actual_w = torch.tensor([1.2, -3.4])
xs = torch.rand(200)
ys = f(xs, actual_w)
train_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(xs, ys), batch_size=10)


class Model2(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.parameter.Parameter(torch.tensor([0.5, -0.5]))

    def forward(self, x):
        return GeneralFunctionWithForwardDifference.apply(f_cut, x, self.weight)


model2 = Model2()
criterion = torch.nn.MSELoss()
batch_x, batch_y = next(iter(train_loader))
out = model2(batch_x)
loss = criterion(out, batch_y)
