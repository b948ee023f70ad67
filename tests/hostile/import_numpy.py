# expect: ForbiddenError
import torch
import numpy
print('imported')
