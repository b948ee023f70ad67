# expect: LimitError
import torch
print(torch.arange(10**10).shape)
