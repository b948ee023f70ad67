# A class body reads the names it bound before from its own namespace, as CPython runs
# it: class constants built from each other (shadowing globals of the same names), a
# method under a second name, a lambda's default and a comprehension's first iterable.
# What the body does not see: a comprehension's element and a method's body read the
# globals, and a name the body binds only later is read where it was before.
import torch
from torch import nn

hidden = 100
layers = 7
later = "the global"


class Config:
    hidden = 4
    layers = 2
    size = hidden * layers
    names = [f"layer{i}" for i in range(layers)]
    doubled = [hidden * i for i in range(3)]
    scale = lambda v, s=size: v * s  # noqa: E731
    before = later
    later = "the class's"
    after = later

    def width(self):
        return hidden

    wide = width


print(Config.size, Config.names, Config.doubled, Config.before, Config.after)
print(Config().width(), Config().wide(), Config.scale(3))


def make(depth):
    class Block(nn.Module):
        inner = depth * 2
        total = inner + depth

        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(self.inner, self.total)

        def forward(self, x):
            return torch.tanh(self.lin(x))

        run = forward

    return Block


torch.manual_seed(0)
Block = make(3)
block = Block()
x = torch.randn(2, Block.inner)
y = block.run(x).sum() + block(x).sum()
y.backward()
print(Block.inner, Block.total, y.item())
print(block.lin.weight.grad.sum().item())


class Counter:
    count = 0
    count = count + 1
    limit = torch.tensor([1.0, 2.0]) * count


print(Counter.count, Counter.limit)
