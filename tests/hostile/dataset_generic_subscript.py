# expect: TypeError|ForbiddenError
# Dataset[int] makes a typing alias (Generic's machinery) that a program would then hold.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

alias = Dataset[int]
print(alias)
