# expect: LimitError
# random_split of a dataset whose __len__ answers 10 to the first read and 30M to torch's own reads: randperm(30M).tolist() after a check of the small one
import torch
from torch.utils.data import random_split

calls = [0]


class DS:
    def __len__(self):
        calls[0] += 1
        return 10 if calls[0] == 1 else 30000000

    def __getitem__(self, i):
        return i


a, b = random_split(DS(), [0.5, 0.5])
print(len(a), len(b))
