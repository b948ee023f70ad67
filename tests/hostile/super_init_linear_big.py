# expect: LimitError
# class Big(nn.Linear) calls super().__init__(3000, 3000): the module size check sees Big() with no numbers
import torch
from torch import nn
class Big(nn.Linear):
    def __init__(self):
        super().__init__(3000, 3000)
m = Big()
print(m.weight.numel())
