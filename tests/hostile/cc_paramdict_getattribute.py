# expect: ForbiddenError
# pd["__getattribute__"] is a generic getattr bound to the dict; any name, no checks
import torch
pd = torch.nn.ParameterDict()
ga = pd["__getattribute__"]
print(ga("__dict__")["_forward_hooks"], ga("__class__"))
