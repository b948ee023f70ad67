# expect: TypeError|ForbiddenError
# torch itself (the real module behind the stand-in) in a slice: cannot pickle 'module'
import copy
import torch
print(copy.deepcopy(slice(None, torch.nn)).stop)
