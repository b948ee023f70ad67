# @property with @x.setter and @x.deleter, as classes validate and convert what is assigned:
# a temperature that refuses values below absolute zero, a read-only property, and a Module
# whose scale is set through a property and used in forward.
import torch
import torch.nn as nn

class Temperature:
    def __init__(self, celsius=0.0):
        self._c = celsius
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, value):
        if value < -273.15:
            raise ValueError("below absolute zero")
        self._c = value
    @celsius.deleter
    def celsius(self):
        print("deleting")
        self._c = None
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32

t = Temperature(20)
t.celsius = 25
print(t.celsius, t.fahrenheit)
try:
    t.celsius = -300
except ValueError as e:
    print("ValueError", e)
try:
    t.fahrenheit = 3
except AttributeError as e:
    print("AttributeError", e)
del t.celsius
print(t._c, type(Temperature.celsius).__name__ if False else "ok")

class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self._scale = 1.0
    @property
    def scale(self):
        return self._scale
    @scale.setter
    def scale(self, s):
        self._scale = float(s)
    def forward(self, x):
        return self.lin(x) * self.scale

m = Scaled()
m.scale = 3
x = torch.ones(1, 2, requires_grad=True)
m(x).sum().backward()
print(m.scale, x.grad.shape)
