# expect: LimitError
# max() compares the keys, lists item by item, in C: the keys are checked at any depth
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(max([0, 1], key=lambda i: [[a, b][i]]))
