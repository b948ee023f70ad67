# expect: ForbiddenError
# num_workers through *args unpacking of a list
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(8.0))
rest = [4, False, None, None, 2]
for batch in DataLoader(ds, *rest):
    print(batch)
