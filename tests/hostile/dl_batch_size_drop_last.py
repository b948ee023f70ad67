# expect: LimitError
# DataLoader(batch_size=40M, drop_last=True): torch's BatchSampler builds [sampler_iter] * N and zip(*that) in C (GBs) before the first batch
import torch
from torch.utils.data import DataLoader, TensorDataset

dl = DataLoader(TensorDataset(torch.zeros(3)), batch_size=40000000, drop_last=True)
n = 0
for b in dl:
    n += 1
print("batches", n)
