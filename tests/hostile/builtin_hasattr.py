# expect: ForbiddenError|NameError
import torch
print(1)
r = hasattr(1, 'real')
print(r)
