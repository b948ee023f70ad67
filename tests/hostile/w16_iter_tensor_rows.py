# expect: LimitError
# next(iter(t)) asks for one row; torch makes all 4,000,000 first
import torch
x = torch.ones(4000000)
print(next(iter(x)))
