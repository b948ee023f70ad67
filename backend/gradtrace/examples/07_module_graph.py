# title: The graph of a module
# summary: A small nn.Module: its parameters are leaves, its forward builds the graph.
# lesson: nn.Parameter makes a tensor that requires a gradient and that the module
#   registers as its own. Calling the module runs forward, which builds the graph from
#   the input and the parameters; backward then fills each parameter's .grad.

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
out.sum().backward()
print(net.w.grad)
print(net.b.grad)
