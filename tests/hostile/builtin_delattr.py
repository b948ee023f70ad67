# expect: ForbiddenError|NameError
import torch
print(1)
r = delattr(print, 'x')
print(r)
