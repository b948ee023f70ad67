import torch
import torch.nn as nn
torch.manual_seed(0)
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
w = torch.tensor([[1.0, 0.0, -1.0, 2.0], [0.5, 1.0, 0.0, -1.0], [2.0, -2.0, 1.0, 0.0]], requires_grad=True)
bias = torch.tensor([0.5, -0.5, 1.0, 0.0], requires_grad=True)
h = x @ w + bias
z = torch.relu(h.t())
flat = z.reshape(8)
first = flat[0] + flat[2:5].sum() + flat[[1, 3]].sum()
both = torch.cat([flat, flat * 2]).sum() + torch.stack([first, first]).mean()
e = bias.expand(3, 4).sum()
lin = nn.Linear(3, 2)
out = lin(x).sum()
loss = both + e + out + h.transpose(0, 1).sum() + h.permute(1, 0).reshape(-1).mean()
loss.backward()
