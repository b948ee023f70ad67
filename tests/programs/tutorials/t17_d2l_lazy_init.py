# Source: github.com/d2l-ai/d2l-en (Dive into Deep Learning, sample code MIT-0), chapter_builders-guide/lazy-init.md, its PyTorch cells.
# Changed: the cells joined in order; a cell's last expression, which the notebook displays,
# is printed. 'from d2l import torch as d2l' and the last cell
# (a method added to the d2l library's Module) dropped.
import torch
from torch import nn

net = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))

print(net[0].weight)

X = torch.rand(2, 20)
net(X)

print(net[0].weight.shape)
