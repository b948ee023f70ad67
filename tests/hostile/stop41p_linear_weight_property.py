# expect: KeyError
# `weight` a property on a subclass of nn.Linear: torch's register_parameter runs hasattr (the getter), then refuses, as in CPython
import torch
import torch.nn as nn
class L(nn.Linear):
    @property
    def weight(self):
        print("get weight")
        return torch.ones(3, 2)
    @weight.setter
    def weight(self, v):
        print("set weight")
l = L(2, 3)
