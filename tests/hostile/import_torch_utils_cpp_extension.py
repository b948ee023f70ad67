# expect: ForbiddenError
import torch
from torch.utils import cpp_extension
print('imported')
