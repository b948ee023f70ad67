# expect: LimitError
# a Subset repeating one index 100,000 times and one 100,000-item batch: collate stacks 9M elements, no check
import torch
from torch.utils.data import DataLoader, TensorDataset, Subset
ds = Subset(TensorDataset(torch.ones(10, 90)), [0] * 100000)
for (b,) in DataLoader(ds, batch_size=100000):
    print(b.numel())
