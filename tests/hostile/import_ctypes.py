# expect: ForbiddenError
import torch
import ctypes
print('imported')
