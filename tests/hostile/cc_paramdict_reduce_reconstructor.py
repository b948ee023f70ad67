# expect: ForbiddenError
# pd["__reduce_ex__"](1) gives copyreg._reconstructor: base.__new__ + base.__init__ on any class pair
import torch
pd = torch.nn.ParameterDict()
r = pd["__reduce_ex__"](1)
print(r[0], r[1][0], r[1][1])
