# expect: LimitError
# enumerate(loader) hides the DataLoader from a for statement: collate would stack 9M elements (tensor limit 4M) from a repeating Subset
import torch
from torch.utils.data import DataLoader, TensorDataset, Subset

ds = Subset(TensorDataset(torch.ones(10, 90)), [0] * 100000)
for i, (b,) in enumerate(DataLoader(ds, batch_size=100000)):
    print(i, b.numel())
