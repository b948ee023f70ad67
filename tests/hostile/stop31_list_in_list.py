# expect: LimitError
# `x in seq` compares x with each item, a list item by item
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print([a] in [[b]])
