# title: A cut graph, mended by finite differences
# summary: When a function cuts the graph, a Function of your own can supply its derivative.
# lesson: Inside torch.no_grad() nothing is recorded, so f_cut's result has no grad_fn
#   and no gradient can flow back through it. A custom Function can still give one:
#   its backward nudges each weight by a small step and measures how the output
#   changes. Adam then trains the weights with these estimated gradients.

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


x = torch.tensor([1.0])
w = torch.tensor([1.0, 1.0]).requires_grad_()
y = f(x, w)
y.backward()
print(w.grad)  # tensor([2., 1.])

y_cut = f_cut(x, w)
print(y_cut.requires_grad, y_cut.grad_fn)  # False None: the graph is cut

torch.manual_seed(0)
actual_w = torch.tensor([1.2, -3.4])
xs = torch.rand(100)
ys = f(xs, actual_w)
train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(xs, ys), batch_size=10)


class Model2(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.parameter.Parameter(torch.tensor([0.0, 0.0]))

    def forward(self, x):
        return GeneralFunctionWithForwardDifference.apply(f_cut, x, self.weight)


model2 = Model2()
optimizer = torch.optim.Adam(model2.parameters(), lr=0.1)
criterion = torch.nn.MSELoss()
model2.train()
for epoch in range(10):
    for i, (batch_x, batch_y) in enumerate(train_loader):
        out = model2(batch_x)
        loss = criterion(out, batch_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print(model2.weight)
