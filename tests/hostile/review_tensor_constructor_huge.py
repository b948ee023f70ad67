# expect: LimitError
import torch
x = torch.Tensor(10**9)
