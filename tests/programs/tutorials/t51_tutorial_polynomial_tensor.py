# Source: github.com/pytorch/tutorials (BSD-3-Clause), beginner_source/examples_tensor/polynomial_tensor.py.
# Changed: 2000 points cut to 200 and 2000 steps to 200; the prose (docstring, comments) dropped.
import math
import torch


dtype = torch.float
device = torch.device("cpu")

x = torch.linspace(-math.pi, math.pi, 200, device=device, dtype=dtype)
y = torch.sin(x)

a = torch.randn((), device=device, dtype=dtype)
b = torch.randn((), device=device, dtype=dtype)
c = torch.randn((), device=device, dtype=dtype)
d = torch.randn((), device=device, dtype=dtype)

learning_rate = 1e-6
for t in range(200):
    y_pred = a + (b * x) + (c * x.pow(2)) + (d * x.pow(3))

    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, loss)

    grad_y_pred = -2.0 * (y - y_pred)
    grad_a = grad_y_pred.sum()
    grad_b = torch.matmul(input=grad_y_pred, other=x).sum()
    grad_c = torch.matmul(input=grad_y_pred, other=x.pow(2)).sum()
    grad_d = torch.matmul(input=grad_y_pred, other=x.pow(3)).sum()

    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d


print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
