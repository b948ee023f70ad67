# expect: ForbiddenError
import torch
print(1)
r = globals()
print(r)
