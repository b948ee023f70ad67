# expect: LimitError
# operator.eq compares lists item by item in C, as == does
import operator

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(operator.eq([a], [b]))
