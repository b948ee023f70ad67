# expect: ForbiddenError|NameError
import torch
print(1)
r = exit()
print(r)
