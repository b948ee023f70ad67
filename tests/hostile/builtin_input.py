# expect: ForbiddenError|NameError
import torch
print(1)
r = input()
print(r)
