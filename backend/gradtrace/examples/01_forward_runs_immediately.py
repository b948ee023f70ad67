# title: The forward pass runs immediately
# summary: Each line computes its tensor as it runs; the graph grows with it.
# lesson: PyTorch builds its graph dynamically. When the line computing Y_hat runs,
#   the matrix product and the addition happen right then, and each result remembers
#   the function that made it in its grad_fn. Nothing waits for loss to be defined,
#   and no backward pass has happened yet, so no gradient exists.

import torch

w = torch.tensor([[3.0, 1.0]], requires_grad=True)
b = torch.tensor([[3.0]], requires_grad=True)
X = torch.randn(10, 2)
Y = torch.randn(10, 1)
Y_hat = X @ w.t() + b  # computed now, before loss is even defined
loss = torch.mean(torch.pow(Y_hat - Y, 2))

print(loss.data)
print(Y_hat.data)
