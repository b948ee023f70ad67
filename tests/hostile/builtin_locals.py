# expect: ForbiddenError
import torch
print(1)
r = locals()
print(r)
