# expect: ForbiddenError
import torch
print(1)
r = type(1)
print(r)
