# Fails on purpose: an index out of range on a tensor.
import torch

x = torch.zeros(3)
print(x[1])
print(x[5])
