# expect: LimitError
# sorted() compares its items in C
import torch

print(sorted([torch.zeros(30000, 1), torch.ones(1, 30000)]))
