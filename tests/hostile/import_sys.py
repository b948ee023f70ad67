# expect: ForbiddenError
import torch
import sys
print('imported')
