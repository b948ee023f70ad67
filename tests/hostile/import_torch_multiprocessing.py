# expect: ForbiddenError
import torch
import torch.multiprocessing
print('imported')
