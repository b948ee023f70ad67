# expect: ForbiddenError
# pin_memory=True as the 8th positional argument (a pin-memory thread where CUDA exists)
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(8.0))
for batch in DataLoader(ds, 4, False, None, None, 0, None, True):
    print(batch)
