# expect: LimitError|MemoryError
# An IterableDataset whose __iter__ is a C iterator without end, read whole by list(): torch's
# loader stacks a new batch from it again and again, with no program code in between.
import itertools
import torch
from torch.utils.data import DataLoader, IterableDataset


class Forever(IterableDataset):
    def __iter__(self):
        return itertools.repeat(torch.zeros(1000))


print(len(list(DataLoader(Forever(), batch_size=1000))))
