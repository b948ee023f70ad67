# expect: LimitError
import torch
x = torch.ones(1)
print(x.expand(10**6, 10**6).sum())
