# expect: ForbiddenError
import torch
print(1)
r = type('A', (), {})
print(r)
