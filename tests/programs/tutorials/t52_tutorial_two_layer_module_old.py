# Source: github.com/pytorch/tutorials (BSD-3-Clause), beginner_source/examples_nn/two_layer_net_module.py
# (the old version with Variable and loss.data[0]).
# Changed: N, D_in, H, D_out = 64, 1000, 100, 10 cut to 16, 100, 20, 10 and 500 steps to 5;
# the prose (docstrings, comments) dropped. Today's torch stops it at loss.data[0].
import torch
from torch.autograd import Variable


class TwoLayerNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super(TwoLayerNet, self).__init__()
        self.linear1 = torch.nn.Linear(D_in, H)
        self.linear2 = torch.nn.Linear(H, D_out)

    def forward(self, x):
        h_relu = self.linear1(x).clamp(min=0)
        y_pred = self.linear2(h_relu)
        return y_pred


N, D_in, H, D_out = 16, 100, 20, 10

x = Variable(torch.randn(N, D_in))
y = Variable(torch.randn(N, D_out), requires_grad=False)

model = TwoLayerNet(D_in, H, D_out)

criterion = torch.nn.MSELoss(size_average=False)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
for t in range(5):
    y_pred = model.forward(x)

    loss = criterion(y_pred, y)
    print(t, loss.data[0])

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
