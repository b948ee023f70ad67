# Seed 000, parts 2 and 3: with retain_graph=True the graph survives, and a second
# backward() adds to the leaf gradients (they accumulate until zeroed).
import torch

x = torch.tensor(3.0, requires_grad=True)
y1 = x + 1
y2 = 2 * x
loss = (y1 - y2) ** 2

