# expect: ForbiddenError
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.ones(4, 1))
for b in DataLoader(ds, 2, False, None, None, 4):
    print(b)
