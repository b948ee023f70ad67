# expect: ForbiddenError
# IterableDataset.__add__ makes torch's ChainDataset.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

class Stream(IterableDataset):
    def __iter__(self):
        yield 1


print(Stream() + Stream())
