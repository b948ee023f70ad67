# expect: LimitError
# a string repeated by a one-element integer tensor
import torch
s = "ab" * torch.tensor(10**9, dtype=torch.int64)
