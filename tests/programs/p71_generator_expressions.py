"""Generator expressions are lazy, as in CPython: read one item at a time, stopped early
by any/all/next/in, their first iterable evaluated at once and the rest when read."""
import itertools
import torch

# Stopped early: an endless source is fine when only a few items are read.
print(any(x > 3 for x in itertools.count()))
print(next(x for x in itertools.count() if x * x > 50))
print(all(x < 5 for x in itertools.count()))
print(7 in (2 * x + 1 for x in itertools.count()))

# Read in parts: what next() and `in` took is gone for the rest.
g = (x * 2 for x in range(6))
print(next(g), next(g))
print(6 in g, list(g), list(g))

# Items are computed when read, from names as they are then.
scale = 1.0
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
terms = (w[i] * scale for i in range(3))
scale = 10.0
first = next(terms)
scale = 100.0
rest = sum(terms)
loss = first + rest
loss.backward()
print(first.item(), rest.item(), w.grad)

# The first iterable is evaluated when the expression runs; an inner one when it is read.
log = []


def source(name, n):
    log.append(name)
    return range(n)


pairs = ((i, j) for i in source("outer", 2) for j in source("inner", 2))
print(log)
print(next(pairs), log)
print(list(pairs), log)

# A side effect in the element happens once per item read.
seen = []
squares = (seen.append(x) or x * x for x in range(5))
print(next(squares), next(squares), seen)

# Errors: at once for what is not iterable; when read for the element's own.
try:
    bad = (x for x in 5)
except TypeError as e:
    print("TypeError:", e)
late = (1 / x for x in [1, 0])
print(next(late))
try:
    next(late)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    next(late)
except StopIteration:
    print("exhausted")

# What tutorials write with them.
model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
print(sum(p.numel() for p in model.parameters()))
print(", ".join(f"{name}{tuple(p.shape)}" for name, p in model.named_parameters()))
x = torch.randn(5, 4)
out = model(x).squeeze(1)
penalty = sum(p.pow(2).sum() for p in model.parameters() if p.dim() > 1)
loss = out.pow(2).mean() + 0.01 * penalty
loss.backward()
print(all(p.grad is not None for p in model.parameters()))
print(max(p.grad.abs().max().item() for p in model.parameters()) > 0)
print(torch.stack(tuple(t * 2 for t in torch.arange(3.0))))
print(dict((k, v) for k, v in zip("abc", range(3))), sorted(-x for x in range(4)))
print(list(zip(range(3), (c for c in "xyz"))))

# autograd reads its outputs and inputs as torch does, once: a generator of them, or a
# Module's parameters().
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
print(torch.autograd.grad((a * b).sum(), (t for t in [a, b])))
print(torch.autograd.grad(model(x).sum(), model.parameters())[1])
torch.autograd.backward(t.sum() for t in [a * 3, b * 5])
print(a.grad, b.grad)

# list += a generator (or a range, or a tensor's rows) is list.extend, in place.
acc = [1]
alias = acc
acc += (i * i for i in range(3))
acc += range(2)
acc += torch.tensor([5.0, 6.0])
print(acc, alias is acc)

# Modules named by a generator of pairs.
layers = torch.nn.ModuleDict((f"fc{i}", torch.nn.Linear(2, 2)) for i in range(2))
scales = torch.nn.ParameterDict((k, torch.nn.Parameter(torch.ones(1) * i)) for i, k in enumerate("ab"))
print(list(layers.keys()), list(scales.keys()), scales["b"].item())

# itertools' combinatorics read a generator into a pool first, as C does.
print(list(itertools.product((x for x in range(2)), repeat=2)))
print(list(itertools.combinations((c for c in "abc"), 2)), len(list(itertools.permutations(x for x in range(3)))))
