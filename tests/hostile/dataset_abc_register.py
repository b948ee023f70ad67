# expect: ForbiddenError
# IterableDataset is an ABC: .register(int) would make every int an IterableDataset, in this
# process, for every later job.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

IterableDataset.register(int)
print(isinstance(1, IterableDataset))
