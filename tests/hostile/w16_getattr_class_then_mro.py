# expect: ForbiddenError
# x.__class__ answers as type(x) does; the class's own dunders stay Python's
import torch
k = getattr(torch.ones(2), "__class__")
print(k.__name__)
print(getattr(k, "__mro__"))
