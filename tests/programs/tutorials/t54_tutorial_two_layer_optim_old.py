# Source: github.com/pytorch/tutorials (BSD-3-Clause), beginner_source/examples_nn/two_layer_net_optim.py
# (the old version with Variable and loss.data[0]).
# Changed: N, D_in, H, D_out = 64, 1000, 100, 10 cut to 16, 100, 20, 10 and 500 steps to 5;
# the prose (docstring, comments) dropped. Today's torch stops it at loss.data[0].
import torch
from torch.autograd import Variable

N, D_in, H, D_out = 16, 100, 20, 10

x = Variable(torch.randn(N, D_in))
y = Variable(torch.randn(N, D_out), requires_grad=False)

model = torch.nn.Sequential(
          torch.nn.Linear(D_in, H),
          torch.nn.ReLU(),
          torch.nn.Linear(H, D_out),
        )
loss_fn = torch.nn.MSELoss(size_average=False)

learning_rate = 1e-4
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
for t in range(5):
  y_pred = model(x)

  loss = loss_fn(y_pred, y)
  print(t, loss.data[0])
  
  optimizer.zero_grad()

  loss.backward()

  optimizer.step()
