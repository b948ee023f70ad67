# expect: ForbiddenError
import torch
print(torch.load('sentinel.txt'))
