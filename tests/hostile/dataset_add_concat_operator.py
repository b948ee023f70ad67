# expect: ForbiddenError
# Dataset.__add__ reached without writing +: operator.add and functools.reduce call it from C.
import functools
import operator
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

print(functools.reduce(operator.add, [Toy(), Toy()]))
