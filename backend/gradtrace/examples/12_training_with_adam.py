# title: Training with Adam
# summary: nn.Linear, a loss, and an optimizer: the usual training loop.
# lesson: The optimizer holds the model's parameters. Each step zeroes their
#   gradients, runs the model forward, computes the loss, calls backward to fill the
#   gradients and lets Adam update the weights. The weights move towards the line
#   that made the data: slope 3 and intercept 2.

import torch
from torch import nn

torch.manual_seed(0)
x = torch.linspace(-1, 1, 32).unsqueeze(1)
y = 3 * x + 2 + 0.1 * torch.randn(32, 1)

model = nn.Linear(1, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()

for step in range(100):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    if step % 25 == 0:
        print(step, round(loss.item(), 4))

print(model.weight.data, model.bias.data)
