# expect: ForbiddenError
import torch
print(1)
r = open('sentinel.txt', 'w').write('pwned')
print(r)
