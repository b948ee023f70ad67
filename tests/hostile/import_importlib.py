# expect: ForbiddenError
import torch
import importlib
print('imported')
