# dict.fromkeys as programs use it (counters and flags keyed by name, de-duplicating in
# order), on dict, OrderedDict and defaultdict, from the class, an instance and a name it
# was bound to; the shared default value; and methods read off the collections classes
# (deque.append, Counter.most_common), called with their instance first.
import collections
from collections import OrderedDict, defaultdict, deque, Counter
import torch

names = ["loss", "acc", "loss", "lr"]
print(dict.fromkeys(names), list(dict.fromkeys(names)))
totals = dict.fromkeys(["train", "val"], 0.0)
for split, value in [("train", 1.5), ("val", 0.5), ("train", 2.0)]:
    totals[split] += value
print(totals, {}.fromkeys("ab", 1), dict.fromkeys(range(3), "x"))
shared = dict.fromkeys(["a", "b"], [])
shared["a"].append(1)
print(shared)
make = dict.fromkeys
print(make((i * i for i in range(4)), True))
print(OrderedDict.fromkeys("hello"), defaultdict.fromkeys([1, 2]), collections.OrderedDict().fromkeys([3]))
grads = dict.fromkeys(["w", "b"])
w = torch.ones(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
(w.sum() * 3 + b * 2).sum().backward()
grads["w"], grads["b"] = w.grad, b.grad
print(grads)
try:
    dict.fromkeys([[1], [2]])
except TypeError as e:
    print("TypeError", e)
q = deque([1, 2])
deque.append(q, 3)
deque.appendleft(q, 0)
print(q, Counter.most_common(Counter("mississippi"), 2), OrderedDict.keys(OrderedDict(a=1)))
