# expect: ForbiddenError
# TensorDataset + TensorDataset is torch's ConcatDataset (refused for a program's Dataset, not for torch's): nest it 30,000 deep, then index it (torch's __getitem__ recursing in Python frames), type() it, shuffle it
import torch
from torch.utils.data import TensorDataset, DataLoader
x = torch.ones(1, 1)
a = TensorDataset(x)
c = a
for i in range(30000):
    c = a + c
print(len(c))
try:
    print(c[0])
except Exception as e:
    print("err", type(e).__name__, str(e)[:100])
try:
    print(c[29999])
except Exception as e:
    print("err", type(e).__name__, str(e)[:100])
print(type(c))
