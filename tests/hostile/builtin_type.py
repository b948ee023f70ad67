# expect: ForbiddenError
import torch
print(1)
r = type(print)
print(r)
