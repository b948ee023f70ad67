# expect: LimitError
# two dicts compare the values of their common keys in C
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print({"w": a} == {"w": b})
