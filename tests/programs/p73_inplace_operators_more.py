# Augmented assignment, more of CPython's in-place cases: a class's own __iadd__ / __imul__
# (and __isub__ falling back to __sub__), a deque repeated in place, a Counter updated by
# a dict, slices repeated in place.
import collections

import torch
from torch import nn


class Acc:
    def __init__(self):
        self.n = 0

    def __add__(self, other):
        print("add")
        return Acc()

    def __iadd__(self, other):
        self.n += other
        return self

    def __imul__(self, other):
        self.n *= other
        return self

    def __sub__(self, other):
        return "sub"


a = Acc()
alias = a
a += 3
a *= 5
print(a is alias, alias.n)
a -= 1
print(a)


class Plus:
    def __add__(self, other):
        return "plus"

    def __rmul__(self, other):
        return "rmul"


p = Plus()
p += 1
print(p)
y = 3
y *= Plus()
print(y)
try:
    q = Plus()
    q -= 1
except TypeError as e:
    print("TypeError:", e)


class Total(nn.Module):
    def __init__(self):
        super().__init__()
        self.total = torch.zeros(2)

    def __iadd__(self, t):
        self.total = self.total + t
        return self


m = Total()
m2 = m
m += torch.ones(2)
print(m2.total, m is m2)

dq = collections.deque([0, 1])
same = dq
dq *= 3
print(same, same is dq)
dq = collections.deque([1, 2, 3], maxlen=4)
dq *= 5
print(dq)
print(collections.deque([1, 2], maxlen=3) * 1000, 2 * collections.deque([5]))

c = collections.Counter(a=3)
c2 = c
c += {"b": 2}
c |= {"a": 7}
c -= {"b": 1}
print(c2, c is c2)

xs = [1, 2, 3, 4, 5]
xs[1:3] *= 3
print(xs)
xs[:0] = xs[:2]
print(xs)
