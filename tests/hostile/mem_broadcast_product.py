# expect: LimitError
import torch
a = torch.ones(100000, 1)
b = torch.ones(1, 100000)
print((a * b).sum())
