# expect: ForbiddenError|NameError
import torch
print(1)
r = id(1)
print(r)
