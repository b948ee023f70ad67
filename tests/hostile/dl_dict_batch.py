# expect: LimitError
# dict samples collate to a dict batch, which a for statement checked not: a dict of one 9M-element tensor (tensor limit 4M)
import torch
from torch.utils.data import DataLoader

row = torch.ones(90)


class DS:
    def __len__(self):
        return 100000

    def __getitem__(self, i):
        return {"x": row}


for b in DataLoader(DS(), batch_size=100000):
    print(b["x"].numel())
