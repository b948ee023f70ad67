# expect: ForbiddenError
import torch
import torch.nn as nn, os
print('imported')
