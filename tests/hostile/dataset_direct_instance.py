# expect: ForbiddenError
# Dataset() itself: torch's own instance, whose repr shows a heap address and whose + makes a
# ConcatDataset.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

d = Dataset()
print(d, d + d)
