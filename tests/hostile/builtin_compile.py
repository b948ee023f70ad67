# expect: ForbiddenError
import torch
print(1)
r = compile('1', 'f', 'eval')
print(r)
