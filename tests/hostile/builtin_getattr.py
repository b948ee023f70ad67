# expect: ForbiddenError
# getattr runs the same checks as `obj.name`, on a name given as text
import torch
print(1)
r = getattr(1, "__reduce_ex__")
print(r(2))
