# expect: ForbiddenError
import torch
print(1)
r = vars()
print(r)
