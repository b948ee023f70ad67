# Seed 000, part 5: a small nn.Module; its graph is what TensorBoard's add_graph draws.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.w = nn.Parameter(torch.randn(2, 1))
        self.b = nn.Parameter(torch.zeros(1, 1))

    def forward(self, x):
        y = x @ self.w + self.b
        return y


net = Net()
out = net(torch.rand(10, 2))
loss = out.sum()
