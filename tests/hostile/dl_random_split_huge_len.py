# expect: LimitError
# random_split of a program dataset whose __len__ is 30M: torch runs randperm(30M).tolist() in one C call (about 1.4 GB)
import torch
from torch.utils.data import random_split


class DS:
    def __len__(self):
        return 30000000

    def __getitem__(self, i):
        return i


a, b = random_split(DS(), [0.5, 0.5])
print(len(a), len(b))
