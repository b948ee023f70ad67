# expect: ForbiddenError
# getattr() reads a special method under the same rule as `obj.name`: the program's own
# only, never a tensor's.
import torch
print(getattr(V := None, "x", 1))
print(getattr(torch.ones(1), "__add__"))
