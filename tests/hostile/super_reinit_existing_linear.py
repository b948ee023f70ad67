# expect: LimitError
# super(Small, m).__init__ re-runs nn.Linear.__init__ on an existing module with huge sizes, unchecked
import torch
from torch import nn
class Small(nn.Linear):
    def __init__(self):
        super().__init__(1, 1)
m = Small()
super(Small, m).__init__(2500, 2500)
print(m.weight.numel())
