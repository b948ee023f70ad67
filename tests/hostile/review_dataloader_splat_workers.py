# expect: ForbiddenError
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.ones(4, 1))
args = [2, False, None, None, 2]
for b in DataLoader(ds, *args):
    print(b)
