# expect: LimitError
# list.sort compares the keys, a tuple nested in a tuple, in C
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
items = [0, 1]
items.sort(key=lambda i: (0, ([a, b][i],)))
