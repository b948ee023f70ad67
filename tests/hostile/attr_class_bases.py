# expect: ForbiddenError
import torch
x = ().__class__.__bases__[0].__subclasses__()
print(x)
