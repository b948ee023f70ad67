import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.Sigmoid(), nn.Linear(4, 1))
x = torch.randn(6, 3)
y = torch.randn(6, 1)
crit = nn.MSELoss()
pred = net(x)
loss = crit(pred, y)
loss.backward()
print(net)
print(loss)
print(net[0].weight.grad)
print(net[4].bias.grad)
print(len(net), len(list(net.parameters())))
