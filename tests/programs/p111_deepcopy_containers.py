# copy.deepcopy of what programs copy besides models: a dataclass config, tied weights
# (kept tied in the copy), a ParameterDict, a leaf with its .grad, every container kind
# (shared items stay shared, immutable ones are not copied), BatchNorm's running stats, a GRU.
import copy
from dataclasses import dataclass, field
from collections import OrderedDict, defaultdict, deque, Counter
import torch
import torch.nn as nn

@dataclass
class Cfg:
    lr: float = 0.1
    dims: list = field(default_factory=lambda: [1, 2])

c = copy.deepcopy(Cfg())
c.dims.append(3)
print(c, Cfg())
emb = nn.Embedding(5, 3)
head = nn.Linear(3, 5, bias=False)
head.weight = emb.weight
model = nn.ModuleDict({"emb": emb, "head": head})
m2 = copy.deepcopy(model)
print(m2["head"].weight is m2["emb"].weight, m2["head"].weight is emb.weight)
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2))})
print(copy.deepcopy(pd)["a"])
w = torch.ones(3, requires_grad=True)
(w * 2).sum().backward()
w2 = copy.deepcopy(w)
print(w2.grad, w2.requires_grad, w2.is_leaf)
d = {"a": [torch.zeros(2), (1, "x")], "b": OrderedDict(x=1), "c": defaultdict(list, k=[1]), "q": deque([1, 2], maxlen=3), "n": Counter("aab"), "s": {1, 2}, "f": frozenset({3}), "sl": slice(1, 5, 2), "r": range(3), "sz": torch.Size([2, 3]), "dt": torch.float64}
d2 = copy.deepcopy(d)
print(d2, d2["a"][1] is d["a"][1], d2["c"]["z"])
shared = [1, 2]
pair = copy.deepcopy([shared, shared])
print(pair[0] is pair[1], pair[0] is shared)
bn = nn.BatchNorm1d(3)
bn(torch.randn(4, 3))
bn2 = copy.deepcopy(bn)
print(torch.equal(bn2.running_mean, bn.running_mean), bn2.num_batches_tracked)
gru = nn.GRU(2, 3)
g2 = copy.deepcopy(gru)
out, h = g2(torch.randn(4, 1, 2))
print(out.shape, len(g2._flat_weights) if False else "ok")
seq = copy.deepcopy(nn.Sequential(nn.Linear(2, 2), nn.Tanh()))
print(seq(torch.ones(1, 2)).shape)
