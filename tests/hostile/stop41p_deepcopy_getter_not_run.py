# expect: ValueError
# deepcopy of objects and Modules with raising getters: the copy reads no property; the error comes only from the program's own read
import copy
import torch.nn as nn
class A:
    def __init__(self):
        self._x = 1
    @property
    def x(self):
        raise ValueError("getter ran")
b = copy.deepcopy(A())
class M(nn.Module):
    @property
    def extra(self):
        raise KeyError("getter ran in copy or print")
m = copy.deepcopy(M())
print(m, m.state_dict())
b.x
