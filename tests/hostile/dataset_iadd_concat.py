# expect: ForbiddenError
# Augmented assignment falls back to Dataset.__add__ (ConcatDataset) when the class has no __iadd__.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

d = Toy()
d += Toy()
print(d)
