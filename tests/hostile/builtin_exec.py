# expect: ForbiddenError
import torch
print(1)
r = exec('x = 1')
print(r)
