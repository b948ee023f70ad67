# expect: ForbiddenError
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.ones(8, 2))
for b in DataLoader(ds, batch_size=2, num_workers=2):
    print(b)
