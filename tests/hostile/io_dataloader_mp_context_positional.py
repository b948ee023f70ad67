# expect: ForbiddenError
# multiprocessing_context="fork" as the 12th positional argument, with one worker
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(8.0))
for batch in DataLoader(ds, 4, False, None, None, 1, None, False, False, 0, None, "fork"):
    print(batch)
