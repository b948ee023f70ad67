# expect: LimitError
import torch
x = torch.arange(torch.tensor(10**9))
