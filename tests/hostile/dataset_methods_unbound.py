# expect: ForbiddenError
# A Dataset subclass's dunders taken without calling them: torch's __getitem__ and __add__
# reachable as raw callables.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

f = getattr(Toy(), '__add__')
print(f(Toy()))
