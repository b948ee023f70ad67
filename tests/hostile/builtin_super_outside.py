# expect: ForbiddenError|NameError|RuntimeError
import torch
print(1)
r = super()
print(r)
