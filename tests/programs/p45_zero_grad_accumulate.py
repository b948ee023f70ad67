import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(2, 2)
xs = [torch.randn(2) for _ in range(3)]
for x in xs:
    lin(x).sum().backward()
print(lin.weight.grad)
print(lin.bias.grad)
lin.zero_grad()
print(lin.weight.grad)
lin(xs[0]).pow(2).sum().backward()
print(lin.weight.grad)
with torch.no_grad():
    for p in lin.parameters():
        p -= 0.1 * p.grad
        p.grad.zero_()
print(lin.weight, lin.bias.grad)
