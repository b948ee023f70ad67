# expect: TypeError
import torch
print(getattr(torch.ones(1), torch.ones(1)))
