# expect: LimitError
import torch
a = torch.ones(10, 100000)
idx = torch.zeros(100000, dtype=torch.long)
print(a.index_select(0, idx).shape)
