# expect: LimitError
import torch
x = torch.zeros(10**9)
