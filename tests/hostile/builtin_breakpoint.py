# expect: ForbiddenError|NameError
import torch
print(1)
r = breakpoint()
print(r)
