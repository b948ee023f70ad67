# expect: LimitError
# An IterableDataset whose __iter__ hands torch's loader a C iterator without end: each batch
# is read through the item cap, so the loop ends.
import itertools
import torch
from torch.utils.data import Dataset, IterableDataset, DataLoader


class Toy(Dataset):
    def __init__(self):
        self.x = torch.arange(4.0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i]

class Forever(IterableDataset):
    def __iter__(self):
        return itertools.repeat(torch.zeros(2))


print(len(list(DataLoader(Forever(), batch_size=None))))
