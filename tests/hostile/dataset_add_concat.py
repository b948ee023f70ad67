# expect: ForbiddenError
# Two program datasets added: torch's Dataset.__add__ would hand the program a ConcatDataset,
# torch's object (its repr shows its address, its attributes unchecked).
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

both = Toy() + Toy()
print(both)
