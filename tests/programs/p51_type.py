# type() as tutorials use it: names of classes and the type of a tensor or a module
import torch
import torch.nn as nn


class Accumulator:
    pass


model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
x = torch.ones(2)
print(type(1).__name__, type(2.5).__name__, type("s").__name__, type(None).__name__)
print(type(Accumulator()).__name__, type(Accumulator()) is Accumulator)
print(type(model).__name__, [type(m).__name__ for m in model], type(x), type(x) is torch.Tensor)
print(type(nn.Parameter(torch.ones(1))).__name__, type(ValueError("e")).__name__)
