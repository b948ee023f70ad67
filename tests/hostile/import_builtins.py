# expect: ForbiddenError
import torch
import builtins
print('imported')
