# expect: ForbiddenError
# typing.Generic's __class_getitem__ on torch's Dataset: a _GenericAlias, typing's machinery.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

alias = Dataset.__class_getitem__(int)
print(alias.__origin__)
