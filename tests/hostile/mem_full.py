# expect: LimitError
import torch
x = torch.full((10**5, 10**5), 1.0)
