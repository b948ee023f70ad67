"""Idioms of older and newer tutorials: __future__ imports, legacy tensor types, lazy
layers, a Generator of one's own, _modules, id() and issubclass()."""

from __future__ import annotations, division, print_function

import torch
import torch.nn as nn
import torch.nn.functional as F


class MySequential(nn.Module):
    def __init__(self, *args):
        super().__init__()
        for idx, module in enumerate(args):
            self._modules[str(idx)] = module

    def forward(self, X):
        for block in self._modules.values():
            X = block(X)
        return X


g = torch.Generator().manual_seed(2147483647)
print(g.initial_seed())
X = torch.randn(4, 6, generator=g)

net = MySequential(nn.LazyLinear(5), nn.ReLU(), nn.LazyLinear(2))
print(len(net._modules), list(net._modules.keys()), "0" in net._modules)
out = net(X)
print(net._modules["0"].weight.shape, out.shape)

idx = torch.LongTensor([0, 1, 1, 0])
print(idx.dtype, torch.FloatTensor(2, 3).shape, torch.DoubleTensor([[1, 2]]).dtype)
loss = F.cross_entropy(out, idx)
loss.backward()
print(loss.item())

conv = nn.LazyConv2d(4, kernel_size=2)
bn = nn.LazyBatchNorm2d()
shuffle = nn.PixelShuffle(2)
drop = nn.Dropout2d(0.0)
image = torch.randn(2, 4, 5, 5, generator=g)
y = shuffle(drop(bn(conv(image))))
print(y.shape)
y.pow(2).mean().backward()
print(conv.weight.grad.shape)

a, b = [1], [1]
print(id(a) == id(a), id(a) == id(b), isinstance(id(a), int))
print(issubclass(bool, int), issubclass(nn.Linear, nn.Module), issubclass(int, (str, float)))
print(issubclass(torch.optim.SGD, torch.optim.Optimizer))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
print(isinstance(opt, torch.optim.Optimizer), isinstance(idx, torch.LongTensor))

rnn = getattr(nn, "GRU")(3, 4)
print(hasattr(rnn, "weight_ih_l0"), hasattr(rnn, "no_such"), getattr(rnn, "no_such", "default"))


class Config:
    pass


cfg = Config()
setattr(cfg, "lr", 0.1)
print(cfg.lr, getattr(cfg, "lr"))
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
torch.set_default_device(device)
print(device, torch.ones(2).device)
