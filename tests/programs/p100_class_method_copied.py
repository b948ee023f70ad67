# A method read off a class is a plain function in Python: set on a class (the same one
# under another name, or another class), it is bound to the instance as any function.
# Also a function in a class body that names another class's method (`step = Base.step`)
# and an nn.Module whose `predict` is its own `forward` set after the body.
import torch
from torch import nn


class B:
    def __init__(self, v):
        self.v = v

    def m(self, k=0):
        return self.v + k


class A:
    def __init__(self):
        self.v = 1

    shared = B.m


A.h = B.m
B.alias = B.m
a, b = A(), B(10)
print(a.h(5), a.shared(2), b.alias(3), A.h(a, 7))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 3.0

    def forward(self, x):
        return x * self.scale


Net.predict = Net.forward
print(Net().predict(torch.ones(2)))
