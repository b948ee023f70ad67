# expect: ForbiddenError
# the class of a class is its metaclass: not a class the program can name
import torch
k = torch.ones(2).__class__
meta = k.__class__
print(meta)
