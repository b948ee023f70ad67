# expect: ForbiddenError
import torch
from . import x
print('imported')
