# expect: LimitError
# range.index of a tensor compares it with each number in turn, in C, past every alarm
import torch

print(range(10**18).index(torch.tensor(-1)))
