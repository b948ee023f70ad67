# expect: ForbiddenError
import torch
print(1)
r = setattr(print, 'x', 1)
print(r)
