# expect: LimitError
# `(k, v) in d.items()` compares v with the value at k in C
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(("w", a) in {"w": b}.items())
