# expect: ForbiddenError
import torch
from torch.serialization import load
print('imported')
