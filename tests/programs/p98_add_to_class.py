# d2l's `add_to_class`: methods written after the class, one cell at a time, set on the
# class with setattr (d2l-en's chapter_linear-regression, adapted to run on its own), and
# the same by plain assignment, on an nn.Module subclass and on a plain class; a lambda
# in a class body is a method too.
import torch
from torch import nn


def add_to_class(Class):
    """Register functions as methods in created class."""

    def wrapper(obj):
        setattr(Class, obj.__name__, obj)

    return wrapper


class LinearRegressionScratch(nn.Module):
    def __init__(self, num_inputs, lr, sigma=0.01):
        super().__init__()
        self.lr = lr
        self.w = torch.normal(0, sigma, (num_inputs, 1), requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)


@add_to_class(LinearRegressionScratch)
def forward(self, X):
    return torch.matmul(X, self.w) + self.b


@add_to_class(LinearRegressionScratch)
def loss(self, y_hat, y):
    l = (y_hat - y) ** 2 / 2
    return l.mean()


class SGD:
    def __init__(self, params, lr):
        self.params = params
        self.lr = lr


@add_to_class(SGD)
def step(self):
    for param in self.params:
        param -= self.lr * param.grad


@add_to_class(SGD)
def zero_grad(self):
    for param in self.params:
        if param.grad is not None:
            param.grad.zero_()


@add_to_class(LinearRegressionScratch)
@torch.no_grad()
def predict(self, X):
    return self(X)


SGD.describe = lambda self: f"SGD(lr={self.lr})"

torch.manual_seed(0)
true_w = torch.tensor([[2.0], [-3.4]])
X = torch.randn(32, 2)
y = X @ true_w + 4.2 + torch.randn(32, 1) * 0.01
model = LinearRegressionScratch(2, lr=0.1)
opt = SGD([model.w, model.b], model.lr)
for epoch in range(3):
    l = model.loss(model(X), y)
    opt.zero_grad()
    l.backward()
    with torch.no_grad():
        opt.step()
    print(epoch, l.item())
print(opt.describe(), model.predict(X[:2]).requires_grad, model.w.T, model.b)


class Counter:
    n = 0
    bump = lambda self: self.n + 1


print(Counter().bump(), hasattr(Counter(), "step"), hasattr(SGD([], 1), "step"))
