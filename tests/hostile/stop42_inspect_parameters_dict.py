# expect: ForbiddenError
# The parameters table is a copy: each entry a Parameter, whose default object stays
# refused however it is reached (through values(), items(), a loop).
import inspect
import torch.nn as nn
for name, p in inspect.signature(nn.Transformer).parameters.items():
    if name == "activation":
        print(getattr(p, "default"))
