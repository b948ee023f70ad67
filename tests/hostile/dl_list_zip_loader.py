# expect: LimitError
# list(zip(loader, ...)): a C consumer takes the loader's batches without a for statement over the loader: one 9M-element batch from a repeating Subset
import torch
from torch.utils.data import DataLoader, TensorDataset, Subset

ds = Subset(TensorDataset(torch.ones(10, 90)), [0] * 100000)
pairs = list(zip(DataLoader(ds, batch_size=100000), [0]))
print(pairs[0][0][0].numel())
