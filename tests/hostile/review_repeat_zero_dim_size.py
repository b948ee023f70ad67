# expect: LimitError
import torch
x = torch.ones(2).repeat(torch.tensor(10**9))
