# expect: LimitError
# bincount makes one count per value up to the largest one it holds: a one-element
# tensor asked for a billion counts (8 GB), allocated before the result's size was
# checked (a GPU worker's process has no address-space limit to stop it)
import torch
print(torch.bincount(torch.tensor([1_000_000_000])).shape)
