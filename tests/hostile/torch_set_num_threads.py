# expect: ForbiddenError
import torch
torch.set_num_threads(1000)
print(torch.ones(3).sum())
