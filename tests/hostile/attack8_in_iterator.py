# expect: LimitError
# `x in iterator` reads it in C, comparing each item with x
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print([a] in map(list, [[b]]))
