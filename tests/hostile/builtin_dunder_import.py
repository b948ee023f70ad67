# expect: ForbiddenError
import torch
print(1)
r = __import__('os').remove('sentinel.txt')
print(r)
