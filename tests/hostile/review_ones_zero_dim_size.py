# expect: LimitError
import torch
x = torch.ones(torch.tensor(10**9))
