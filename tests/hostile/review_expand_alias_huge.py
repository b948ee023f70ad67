# expect: LimitError
import torch
e = torch.ones(1, 1).expand
y = e(10**5, 10**5).contiguous()
