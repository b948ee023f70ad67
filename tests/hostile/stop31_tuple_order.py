# expect: LimitError
# (a,) < (b,) compares the first items with == in C: 900,000,000 bools
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print((a,) < (b,))
