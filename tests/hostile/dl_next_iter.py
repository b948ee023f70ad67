# expect: LimitError
# next(iter(loader)) takes a batch without a for statement: a 9M-element batch (tensor limit 4M)
import torch
from torch.utils.data import DataLoader, TensorDataset, Subset

ds = Subset(TensorDataset(torch.ones(10, 90)), [0] * 100000)
(b,) = next(iter(DataLoader(ds, batch_size=100000)))
print(b.numel())
