# expect: LimitError
# [0] * torch.tensor(n): Python repeats the list by the tensor's __index__; it was checked
# neither as a repeat nor for its size
import torch
xs = [0] * torch.tensor(10**9)
