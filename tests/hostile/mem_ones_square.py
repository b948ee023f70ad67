# expect: LimitError
import torch
x = torch.ones(100000, 100000)
