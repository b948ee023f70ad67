# expect: ForbiddenError|NameError
import torch
print(1)
r = help(print)
print(r)
