# expect: ForbiddenError
# DataLoader(ds, 2, False, None, None, 2): num_workers as the 6th positional argument; the wrapper only looks in kwargs
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(8.0))
for batch in DataLoader(ds, 2, False, None, None, 2):
    print(batch)
