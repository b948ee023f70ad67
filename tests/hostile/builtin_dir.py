# expect: ForbiddenError
import torch
print(1)
r = dir()
print(r)
