# expect: ForbiddenError
# a property put on a Module class as `_parameters` after its statement: torch's __init__ would run its setter with its own table
import torch.nn as nn
class A:
    @property
    def p(self):
        return {}
    @p.setter
    def p(self, v):
        print(type(v))
class M(nn.Module):
    pass
setattr(M, "_parameters", A.p)
print(M())
