# expect: LimitError
import torch
ys = list(map(torch.zeros, [10**10]))
