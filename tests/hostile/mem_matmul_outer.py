# expect: LimitError
import torch
a = torch.ones(1000000, 1)
b = torch.ones(1, 1000000)
print((a @ b).sum())
