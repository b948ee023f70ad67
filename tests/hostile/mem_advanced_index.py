# expect: LimitError
import torch
a = torch.ones(1000, 1000)
idx = torch.zeros(1000, 1000, dtype=torch.long)
print(a[idx].shape)
