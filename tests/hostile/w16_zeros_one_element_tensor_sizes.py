# expect: LimitError
# a one-element tensor is a size as a 0-dim one is; the check read only 0-dim ones
import torch
n = torch.tensor([100000])
x = torch.zeros(n, n)
print(x.shape)
