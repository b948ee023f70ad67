# expect: ForbiddenError
# The same through getattr, and the class's __orig_bases__ / __mro__ (typing.Generic, object).
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

print(getattr(Toy, '__orig_bases__'), getattr(Toy, '__mro__'))
print(getattr(Dataset, '__class_getitem__'))
