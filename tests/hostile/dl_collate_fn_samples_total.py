# expect: LimitError
# a program collate_fn handed 5 samples that are views of one 4M-element row (20M elements in all, over the total): a collate that stacks them in C would make them real
import torch
from torch.utils.data import DataLoader, TensorDataset, Subset

ds = Subset(TensorDataset(torch.ones(1, 4000000)), [0] * 5)


def collate(samples):
    return samples


for batch in DataLoader(ds, batch_size=5, collate_fn=collate):
    print(len(batch))
