# expect: LimitError
# list.sort calls its key in C: key=torch.Tensor made an unchecked tensor of each item's size
import torch

xs = [10**9, 10**9 + 1]
xs.sort(key=torch.Tensor)
print(xs)
