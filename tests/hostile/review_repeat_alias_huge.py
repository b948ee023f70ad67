# expect: LimitError
import torch
r = torch.ones(10).repeat
y = r(10**8)
