# expect: ForbiddenError
import torch
print(1)
r = eval('1 + 1')
print(r)
