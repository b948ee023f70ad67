# expect: LimitError
import torch
a = torch.ones(5000, 1)
b = torch.ones(1, 5000)
c = a < b
