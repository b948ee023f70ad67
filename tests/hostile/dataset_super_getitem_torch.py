# expect: ForbiddenError
# super().__getitem__ past the program's classes is torch's Dataset.__getitem__, not admitted.
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

class Sub(Toy):
    def raw(self, i):
        return super(Toy, self).__getitem__(i)


print(Sub().raw(0))
