# Source: github.com/pytorch/tutorials (BSD-3-Clause), beginner_source/examples_autograd/polynomial_autograd.py.
# Changed: 2000 points cut to 200 and 2000 steps to 200; the prose (docstring, comments) dropped.
import torch
import math

dtype = torch.float
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
torch.set_default_device(device)

x = torch.linspace(-math.pi, math.pi, 200, dtype=dtype)
y = torch.sin(x)

a = torch.randn((), dtype=dtype, requires_grad=True)
b = torch.randn((), dtype=dtype, requires_grad=True)
c = torch.randn((), dtype=dtype, requires_grad=True)
d = torch.randn((), dtype=dtype, requires_grad=True)

learning_rate = 1e-6
for t in range(200):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3

    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())

    loss.backward()

    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad

        #a.grad = None
        #b.grad = None
        #c.grad = None
        #d.grad = None
        a.grad, b.grad, c.grad, d.grad = 0. , 0. , 0. , 0.

print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
