# Classes as values, as real code uses them: type(x) is list, list.append(xs, v),
# defaultdict(list) and its default_factory, __name__ of builtins and torch functions,
# classes handed to map / sorted / functools.partial, a layer class passed to a
# constructor, isinstance and issubclass with them.
import functools
from collections import defaultdict

import torch
from torch import nn

torch.manual_seed(0)


def describe(value):
    if type(value) is list:
        return "list of " + str(len(value))
    if type(value) == dict:
        return "dict with " + ", ".join(sorted(value))
    if type(value) in (tuple, set):
        return type(value).__name__
    return type(value).__name__


print([describe(v) for v in ([1, 2], {"b": 1, "a": 2}, (1,), {3}, 2.5, torch.ones(1))])
print(list, dict, tuple, set, frozenset, [].__class__, type({}) is dict)
xs = []
list.append(xs, 3)
list.extend(xs, [1, 2])
print(xs, sorted(xs), str.upper("abc"), list.__name__, dict.__name__)

groups = defaultdict(list)
for word in ["apple", "avocado", "banana", "blueberry", "cherry"]:
    groups[word[0]].append(word)
print(groups)
print(groups.default_factory is list, groups.default_factory == list, groups.default_factory)
counts = defaultdict(int)
for ch in "hello":
    counts[ch] += 1
print(dict(counts), counts.default_factory)
nested = defaultdict(set)
nested["x"].add(1)
print(nested)

activations = [torch.relu, torch.tanh, torch.sigmoid, nn.functional.gelu]
x = torch.linspace(-2, 2, 5, requires_grad=True)
total = 0
for act in activations:
    y = act(x)
    total = total + y.sum()
    print(act.__name__, [round(v, 4) for v in y.tolist()])
total.backward()
print(x.grad)

print(list(map(list, ["ab", (1, 2)])), list(map(str, [1, 2])), list(map(tuple, [[3, 4]])))
print(sorted([[3, 1], [2]], key=len), list(map(float, ["1.5"])))
ones = functools.partial(torch.ones, 2)
print(ones(), ones().dtype)


class Block(nn.Module):
    def __init__(self, width, act=nn.ReLU):
        super().__init__()
        self.linear = nn.Linear(width, width)
        self.act = act()
        self.kind = act.__name__

    def forward(self, h):
        return self.act(self.linear(h))


blocks = [Block(3, act) for act in (nn.ReLU, nn.Tanh, nn.Sigmoid)]
net = nn.Sequential(*blocks)
h = torch.randn(2, 3)
out = net(h).sum()
out.backward()
print([b.kind for b in blocks], round(out.item(), 5))
print(blocks[0].linear.weight.grad)
print(type(net) is nn.Sequential, isinstance(blocks[1].act, nn.Tanh), issubclass(Block, nn.Module))
print([type(m).__name__ for m in net.modules()][:4], type(h) is torch.Tensor, nn.Linear)
layers = list(map(nn.Linear, [2, 3], [3, 1]))
print([tuple(layer.weight.shape) for layer in layers])
