# expect: LimitError
# operator.lt given to map: each call compares tuples item by item
import operator

import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(list(map(operator.lt, [(a,)], [(b,)])))
