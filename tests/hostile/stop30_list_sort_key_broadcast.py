# expect: LimitError
# list.sort(key=...) compares the keys in C, as sorted() does
import torch

keys = [torch.zeros(30000, 1), torch.ones(1, 30000)]
order = [0, 1]
order.sort(key=lambda i: keys[i])
print(order)
