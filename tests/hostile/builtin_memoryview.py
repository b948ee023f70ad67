# expect: ForbiddenError|NameError
import torch
print(1)
r = memoryview(b'abc')
print(r)
