# expect: ForbiddenError
# nn.ParameterDict.__getitem__ is getattr(self, key): pd["__class__"], pd["__dict__"] with no attribute check
import torch
pd = torch.nn.ParameterDict()
print(pd["__class__"], sorted(pd["__dict__"])[:4])
