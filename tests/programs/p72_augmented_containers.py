"""Augmented assignment changes Python's mutable containers in place, as in CPython: a
second name for the same dict, set or list sees the change; immutable ones are rebound;
the errors name the augmented operator."""
import collections
import torch

# dict |= is update: a mapping, (key, value) pairs, a generator of them.
w = torch.tensor([1.0, 2.0], requires_grad=True)
grads = {"w": None}
alias = grads
grads |= ((name, w * 2) for name in ["w", "w2"])
grads |= {"b": torch.zeros(2)}
grads |= [("lr", 0.1)]
print(sorted(grads), alias is grads)
print(grads["w2"])
od = collections.OrderedDict(a=1)
od |= [("b", 2)]
print(od)
dd = collections.defaultdict(int)
dd |= {"q": 1}
print(dd["q"], dd["missing"])
c = collections.Counter(a=3)
c |= collections.Counter(a=1, b=2)  # a Counter's |= keeps the larger counts
print(c)

# Sets with another set: in place.
s = {1, 2, 3}
t = s
s |= {4}
s &= {1, 2, 4, 9}
s -= frozenset({2})
s ^= {7, 1}
print(sorted(s), t is s)
fs = frozenset({1})
fs2 = fs
fs |= {2}
print(sorted(fs), fs2 is fs)

# list *= n repeats in place; list += extends in place.
params = [w]
same = params
params *= 2
params += (p * 3 for p in [w])
print(len(params), same is params)
loss = sum(p.sum() for p in params)
loss.backward()
print(w.grad)
row = [0]
row *= 0
print(row)
# Repeated by what Python takes as an int: a one-element integer tensor, a numpy integer.
import numpy as np
steps = torch.tensor(3)
print([0.5] * steps, "ab" * steps, (1, 2) * torch.tensor(2))
cols = [1, 2]
cols *= torch.tensor(2)
print(cols, [0] * np.int64(3))

# A deque extends in place; a Counter adds, subtracts, unites and intersects in place.
dq = collections.deque([w * 1], maxlen=4)
dq_alias = dq
dq += [w * 2, w * 3]
dq += (w * k for k in range(4, 6))
print(len(dq), dq_alias is dq, [round(float(t.sum()), 1) for t in dq])
words = collections.Counter("abracadabra")
same_words = words
words += collections.Counter("cab")
words -= collections.Counter(a=6)
words |= collections.Counter(z=2)
words &= collections.Counter(b=1, c=5, z=9)
print(sorted(words.items()), same_words is words)

# The errors name the augmented operator.
try:
    s |= [5]
except TypeError as e:
    print(e)
try:
    params *= 2.5
except TypeError as e:
    print(e)
try:
    grads |= 5
except TypeError as e:
    print(e)
n = 2
try:
    n **= "a"
except TypeError as e:
    print(e)
try:
    n += "a"
except TypeError as e:
    print(e)
