# expect: LimitError
# sorted() compares the pairs item by item: equal first items, then a with b
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(sorted([(0, a), (0, b)]))
