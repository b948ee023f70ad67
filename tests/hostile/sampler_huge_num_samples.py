# expect: LimitError
# a RandomSampler asked for a billion draws, collected by list() in C
import torch
from torch.utils.data import RandomSampler, TensorDataset

s = RandomSampler(TensorDataset(torch.arange(4.0)), replacement=True, num_samples=10**9)
print(len(list(s)))
