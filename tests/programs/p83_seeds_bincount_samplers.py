# set_seed boilerplate (minGPT's utils.set_seed), np.bincount on labels (a class-count
# print before training), and a DataLoader with an explicit sampler
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, RandomSampler, SequentialSampler, TensorDataset


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.cuda.manual_seed(seed)


set_seed(3407)
print(torch.rand(3), random.random(), np.random.rand())

y = np.array([0, 1, 1, 2, 2, 2, 0, 2])
print("Class label counts:", np.bincount(y))
print(np.bincount(y, minlength=5), np.bincount([0, 3], weights=[0.5, 1.5]))
print(np.bincount(np.array([], dtype=np.int64)), np.bincount(torch.tensor([1, 1, 0]).numpy()))
try:
    np.bincount(np.array([-1, 2]))
except ValueError as e:
    print("ValueError:", e)

ds = TensorDataset(torch.arange(10.0), torch.arange(10) % 3)
loader = DataLoader(
    ds, sampler=torch.utils.data.RandomSampler(ds, replacement=True, num_samples=6), batch_size=4
)
print(len(loader))
for x, t in loader:
    print(x, t)
sampler = RandomSampler(ds)
print(list(sampler), len(sampler), isinstance(sampler, RandomSampler))
print(list(SequentialSampler(ds)))
g = torch.Generator().manual_seed(1)
for x, t in DataLoader(ds, sampler=RandomSampler(ds, generator=g), batch_size=5):
    print(x.tolist(), t.tolist())
w = torch.ones(2, requires_grad=True)
(w * torch.tensor(np.bincount([1, 1, 0]), dtype=torch.float32)).sum().backward()
print(w.grad)
