# expect: LimitError
# a dataset whose __len__ answers 10 when the DataLoader is made and 30M afterwards: torch's RandomSampler would read the large one at the first epoch and run randperm(30M).tolist()
import torch
from torch.utils.data import DataLoader

calls = [0]


class DS:
    def __len__(self):
        calls[0] += 1
        return 10 if calls[0] == 1 else 30000000

    def __getitem__(self, i):
        return torch.tensor(float(i))


for b in DataLoader(DS(), batch_size=2, shuffle=True):
    print(b)
    break
