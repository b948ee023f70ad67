# expect: ForbiddenError
import torch
print(1)
r = getattr(1, 'real')
print(r)
