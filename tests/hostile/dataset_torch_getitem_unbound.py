# expect: ForbiddenError
# torch's Dataset.__getitem__ read off the class, as a raw function.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

g = Dataset.__getitem__
print(g)
