# expect: LimitError
# == between (3000,1) and (1,3000): expr_Compare has no broadcast size check
import torch
a = torch.ones(3000, 1)
b = torch.ones(1, 3000)
m = a == b
print(m.numel())
