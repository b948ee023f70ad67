# expect: LimitError
# the same through an explicit super(Big, self).__init__ of nn.Embedding
import torch
from torch import nn
class Big(nn.Embedding):
    def __init__(self, n):
        super(Big, self).__init__(n, 3000)
m = Big(3000)
print(m.weight.numel())
