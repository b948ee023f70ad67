# expect: LimitError
# a program's subclass of nn.Linear without an __init__ of its own: torch's constructor runs straight from the call, so it is measured as nn.Linear's
import torch
from torch import nn
class Wide(nn.Linear):
    pass
layer = Wide(100000, 100000)
print(layer.weight.shape)
