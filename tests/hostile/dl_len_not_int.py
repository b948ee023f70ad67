# expect: TypeError
# a dataset whose __len__ returns a float: the DataLoader's shuffle reads it before torch's sampler does
import torch
from torch.utils.data import DataLoader


class DS:
    def __len__(self):
        return 3.5

    def __getitem__(self, i):
        return torch.tensor(float(i))


for b in DataLoader(DS(), batch_size=2, shuffle=True):
    print(b)
