# expect: ForbiddenError
# pd["__setattr__"] sets any attribute (including private ones) on the instance
import torch
pd = torch.nn.ParameterDict()
pd["__setattr__"]("_forward_hooks_always_called", {1: True})
pd["__setattr__"]("training", "yes")
print(pd["training"])
