# expect: LimitError
import torch
a = torch.ones(5000, 1)
c = a == torch.ones(5000)
