# expect: LimitError
# `x in range(...)` for anything but an int compares x with each number in turn, in C,
# past every alarm: 10**18 torch comparisons
import torch

print(torch.tensor([0.5]) in range(10**18))
