# expect: LimitError
# a RandomSampler of a billion draws (torch draws lazily) read whole by list() in C: stopped at the item cap
import torch
from torch.utils.data import RandomSampler, TensorDataset

s = RandomSampler(TensorDataset(torch.arange(4.0)), replacement=True, num_samples=10**9)
print(len(list(s)))
