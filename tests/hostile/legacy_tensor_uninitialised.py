# expect: AssertionError
# torch.FloatTensor(n) is uninitialised memory in torch: here zeros, never an earlier job's data
import torch
x = torch.FloatTensor(4096)
y = torch.LongTensor(torch.Size([4096]))
assert x.abs().sum().item() > 0 or y.abs().sum().item() > 0, "zeros, as expected"
