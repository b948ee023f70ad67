# expect: ForbiddenError
import torch
from torch import _C
print('imported')
