# expect: LimitError
# list.count compares elements with ==: a tensor (1, 10000) against (10000, 1) broadcasts 100M inside C
import torch
a = torch.ones(1, 10000)
try:
    [torch.ones(10000, 1)].count(a)
except RuntimeError as e:
    print("compared")
