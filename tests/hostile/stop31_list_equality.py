# expect: LimitError
# [a] == [b] compares the items in C: a bool tensor of 900,000,000 elements before torch's
# "ambiguous" error
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print([a] == [b])
