# expect: ForbiddenError
# torch's own Dataset subclasses a program can make (TensorDataset, Subset from random_split) still inherit Dataset.__add__: ConcatDataset, torch's object with an address in its repr and cumulative_sizes/datasets attributes
import torch
from torch.utils.data import TensorDataset, random_split, Subset
import operator
x = torch.ones(4, 2)
a = TensorDataset(x)
b = TensorDataset(x)
parts = random_split(a, [2, 2])
for f in [lambda: a + b, lambda: parts[0] + parts[1], lambda: operator.add(a, parts[0]), lambda: sum([b], a)]:
    try:
        c = f()
        print(repr(c), len(c), c[5])
        print(c.datasets, c.cumulative_sizes)
    except Exception as e:
        print(type(e).__name__, str(e)[:120])
