# expect: LimitError
# A class handed to code that calls it in C: map(torch.Tensor, sizes) called
# torch.Tensor(n) with none of the call path's checks (unsized and never zeroed:
# uninitialised memory of any size, up to what an earlier job left in the heap)
import torch

made = list(map(torch.Tensor, [10**9]))
print(made[0].shape)
