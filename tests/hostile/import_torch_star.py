# expect: ForbiddenError
import torch
from torch import *
print('imported')
