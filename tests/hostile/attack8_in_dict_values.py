# expect: LimitError
# `x in d.values()` compares x with each value in C
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(a in {"w": b}.values())
