# expect: LimitError
# max(items, key=...) compares the keys in C: tensors of these shapes broadcast to a bool
# tensor of 900,000,000 elements before Python asks for its truth value
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(max([0, 1], key=lambda i: [a, b][i]))
