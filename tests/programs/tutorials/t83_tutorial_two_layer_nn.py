# Source: github.com/pytorch/tutorials (BSD-3-Clause), beginner_source/examples_nn/two_layer_net_nn.py
# (the version with Tensors, after autograd.Variable).
# Changed: the prose (docstring, full-line comments) dropped; N, D_in, H, D_out = 64, 1000,
# 100, 10 cut to 16, 100, 20, 10 and 500 steps to 200, as in t53 (200 steps at the full
# sizes go over a run's memory limit, memory_mb).
import torch

N, D_in, H, D_out = 16, 100, 20, 10

x = torch.randn(N, D_in)
y = torch.randn(N, D_out)

model = torch.nn.Sequential(
    torch.nn.Linear(D_in, H),
    torch.nn.ReLU(),
    torch.nn.Linear(H, D_out),
)

loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-4
for t in range(200):
    y_pred = model(x)

    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, loss.item())

    model.zero_grad()

    loss.backward()

    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
