# expect: LimitError
# a program dataset whose __len__ is 30M with shuffle=True: torch's RandomSampler runs randperm(30M).tolist() in one C call (about 1.4 GB)
import torch
from torch.utils.data import DataLoader


class DS:
    def __len__(self):
        return 30000000

    def __getitem__(self, i):
        return torch.tensor(float(i))


dl = DataLoader(DS(), batch_size=2, shuffle=True)
for b in dl:
    print(b)
    break
print("done")
