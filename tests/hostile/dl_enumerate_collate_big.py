# expect: LimitError
# enumerate(loader): one batch of 100 copies of a 4M-element row; collate would stack 400M elements (1.6 GB) before any check of the batch
import torch
from torch.utils.data import DataLoader, TensorDataset, Subset

ds = Subset(TensorDataset(torch.ones(1, 4000000)), [0] * 100)
for i, (b,) in enumerate(DataLoader(ds, batch_size=100)):
    print(i, b.numel(), b.sum().item())
